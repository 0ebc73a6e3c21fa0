// Where the file tools get and put a text file's content when it is not the disk: an editor's buffers (over
// ACP), which hold the user's unsaved changes and show the agent's changes as they are made. The file itself
// is still checked on disk first (it exists, is a regular file, is text, is not an image).
export interface TextFileAccess {
	/** The whole text of the file at an absolute path; undefined: read it from disk (the port declines, e.g. too big). */
	readText(path: string, signal?: AbortSignal): Promise<string | undefined>;
	/** Replaces the whole text of the file at an absolute path (creating it); its folder exists. */
	writeText(path: string, text: string, signal?: AbortSignal): Promise<void>;
}
