// Runs when `node-gyp rebuild` fails during `pnpm install` (no C++ compiler or make, no Python for
// node-gyp): the install goes on, and Weft runs on the JavaScript path of every function, with
// the same answers, several times slower on large trajectory logs and digests.
console.warn(
  '@weft/json-native was not built, so Weft will use its JavaScript JSON path (same answers, slower on large ' +
    'trajectory logs). To build it, install a C++ compiler, make and Python 3 (Debian: build-essential python3), ' +
    'then run: pnpm rebuild @weft/json-native',
);
