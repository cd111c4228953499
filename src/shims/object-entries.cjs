// node-polyglot's `object.entries` polyfill (with get-intrinsic and its helpers) for browsers that all have Object.entries.
module.exports = Object.entries;
