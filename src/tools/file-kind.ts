// The tools tell images and binary files from text as loom does everywhere (src/core/files/file-kind.ts).
export * from "../core/files/file-kind.js";
