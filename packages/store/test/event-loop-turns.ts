// How many turns the event loop took while `work` ran: more than a few means the work gave other
// requests their turn; 0 means it held the loop from start to end (as a synchronous SQLite call does).
export async function turnsDuring<T>(work: () => Promise<T>): Promise<{ value: T; turns: number }> {
  let turns = 0;
  let running = true;
  const tick = () => {
    if (!running) return;
    turns++;
    setImmediate(tick);
  };
  setImmediate(tick);
  try {
    return { value: await work(), turns };
  } finally {
    running = false;
  }
}
