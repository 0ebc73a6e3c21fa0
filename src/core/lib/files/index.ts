// Door of the file helpers: checked paths and reads, atomic writes keeping a file's identity, locks, tree walks.
export { atomicWriteFile } from "./atomic-write.js";
export { MAX_IMAGE_BYTES, SNIFF_BYTES, detectImageMimeType, looksBinary, type ImageMimeType } from "./file-kind.js";
export { FileChangedError, readSnapshot, type FileSnapshot } from "./file-snapshot.js";
export { parseJson, readConfigText, readJsonState, writeJsonState } from "./json-file.js";
export { outputFolder, removeStaleOutputFolders } from "./output-folder.js";
export { directoryNames, entryExists, isDirectory, realpathOrSelf, repositoryTop } from "./paths.js";
export { replaceFileSync } from "./replace-file.js";
export { takeShortLock } from "./short-lock.js";
export { walkTree, type EntryKind, type TreeEntry, type WalkOptions } from "./walk-tree.js";
