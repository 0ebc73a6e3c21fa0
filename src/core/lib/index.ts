// Door of core/lib: files, text and processes, with no knowledge of agents.
export { ABORT_GRACE_MS, AbortedError, raceAbort } from "./abort.js";
export { withBaselineWasm } from "./baseline-wasm.js";
export { readBodyStart } from "./body-start.js";
export {
	CheckedReadError,
	MAX_IMAGE_BYTES,
	SNIFF_BYTES,
	decodeText,
	detectImageMimeType,
	looksBinary,
	openRegularFile,
	readAt,
	readCheckedFile,
	readCheckedText,
	readOpenFile,
	specialFileKind,
	withoutBom,
	type ImageMimeType,
	type RegularFile,
} from "./checked-read.js";
export { errorMessage, errorMessageWithCause } from "./error-text.js";
export {
	FileChangedError,
	atomicWriteFile,
	directoryNames,
	entryExists,
	expandHome,
	isDirectory,
	outputFolder,
	parseJson,
	readConfigText,
	readJsonState,
	readSnapshot,
	realpathOrSelf,
	removeStaleOutputFolders,
	replaceFileSync,
	repositoryTop,
	takeShortLock,
	ignoredFiles,
	walkOrder,
	walkTree,
	writeJsonState,
	type EntryKind,
	type IgnoredFile,
	type FileSnapshot,
	type TreeEntry,
	type WalkOptions,
} from "./files/index.js";
export { formatCost, formatCount, formatDuration, formatLocalMinute, formatRelativeTime, formatSize, formatTokens } from "./format.js";
export { findOnPath, isExecutable, type ConfineSpawn, type SpawnSpec } from "./process/index.js";
export { ProcessGroupSet, claimUncaughtErrors, isAlive, offerUncaughtError, onProcessExit, type UncaughtErrorClaimer } from "./process/index.js";
export { rawBoolean, rawField, rawNumber, rawString } from "./raw-value.js";
export {
	DEFAULT_MAX_BYTES,
	DEFAULT_MAX_LINES,
	MASK,
	closestName,
	editDistance,
	escapeRegex,
	maskValues,
	mentions,
	mentionWord,
	pathWordAt,
	redactSecrets,
	shellWord,
	showControls,
	stripCommandOutput,
	stripControls,
	stripToOneLine,
	truncateHead,
	truncateTail,
	unfinishedSequenceStart,
	type Mention,
	type PathWord,
	type SecretMask,
	type TruncationResult,
} from "./text/index.js";
