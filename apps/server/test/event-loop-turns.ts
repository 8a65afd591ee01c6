// Counts the event loop's turns from now until stop(): more than a few while some work ran means
// the work let other requests in; 0 means it held the loop from start to end.
export function countTurns(): { stop(): number } {
  let turns = 0;
  let running = true;
  const tick = () => {
    if (!running) return;
    turns++;
    setImmediate(tick);
  };
  setImmediate(tick);
  return {
    stop() {
      running = false;
      return turns;
    },
  };
}
