// The addon built by `pnpm install` (node-gyp, binding.gyp). @weft/core loads it when it can and
// otherwise computes the same bytes in JavaScript.
module.exports = require('./build/Release/json_native.node');
