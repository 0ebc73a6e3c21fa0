// Door of the file helpers: checked paths and reads, atomic writes keeping a file's identity, locks, tree walks.
export { atomicWriteFile, replaceFileSync } from "./atomic-write.js";
export { FileChangedError, readSnapshot, type FileSnapshot } from "./file-snapshot.js";
export { parseJson, readConfigText, readJsonState, writeJsonState } from "./json-file.js";
export { outputFolder, removeStaleOutputFolders } from "./output-folder.js";
export { directoryNames, entryExists, expandHome, isDirectory, realpathOrSelf, repositoryTop } from "./paths.js";
export { takeShortLock } from "./short-lock.js";
export { ignoredFiles, walkOrder, type IgnoredFile } from "./ignored-paths.js";
export { walkTree, type EntryKind, type TreeEntry, type WalkOptions } from "./walk-tree.js";
