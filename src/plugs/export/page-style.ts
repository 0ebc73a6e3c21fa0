// The exported page's style, inline in the page: readable in any browser, light or dark as the reader prefers.
export const PAGE_STYLE = `
:root { color-scheme: light dark; --fg: #1d1f23; --muted: #6a6f78; --bg: #ffffff; --panel: #f4f5f7; --border: #d9dce1;
  --user: #eef4ff; --accent: #2f6fde; --added: #0f7b35; --removed: #b42318; --hunk: #7a4cc2; --error: #b42318; }
@media (prefers-color-scheme: dark) {
  :root { --fg: #e4e6ea; --muted: #9aa0a9; --bg: #16181c; --panel: #1f2228; --border: #353a42; --user: #1c2636;
    --accent: #7aa7ff; --added: #5fd38d; --removed: #ff8a80; --hunk: #c3a3ff; --error: #ff8a80; }
}
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--fg); font: 15px/1.55 system-ui, -apple-system, "Segoe UI", sans-serif; }
main { max-width: 920px; margin: 0 auto; padding: 24px 16px 64px; }
header h1 { font-size: 1.3em; margin: 0 0 12px; overflow-wrap: anywhere; }
dl.totals { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; margin: 0 0 24px; padding: 12px 16px;
  background: var(--panel); border: 1px solid var(--border); border-radius: 8px; font-size: 0.9em; }
dl.totals dt { color: var(--muted); }
dl.totals dd { margin: 0; overflow-wrap: anywhere; }
.message { margin: 16px 0; padding: 12px 16px; border: 1px solid var(--border); border-radius: 8px; }
.message.user { background: var(--user); }
.role { font-weight: 600; font-size: 0.85em; color: var(--muted); display: flex; gap: 10px; align-items: baseline; }
.role .entry, .role time { font-weight: 400; font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 0.9em; color: var(--muted); text-decoration: none; }
.role time { margin-left: auto; }
.md { overflow-wrap: anywhere; }
.md pre, pre { background: var(--panel); border: 1px solid var(--border); border-radius: 6px; padding: 8px 10px; overflow-x: auto;
  font: 13px/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; white-space: pre-wrap; word-break: break-word; }
code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.92em; }
.md table { border-collapse: collapse; }
.md th, .md td { border: 1px solid var(--border); padding: 4px 8px; }
.md blockquote { margin: 0; padding-left: 12px; border-left: 3px solid var(--border); color: var(--muted); }
a { color: var(--accent); }
.href, .image { color: var(--muted); font-size: 0.9em; }
details > summary { cursor: pointer; color: var(--muted); font-size: 0.9em; }
details.attachment, p.attachment { margin: 6px 0; padding: 4px 10px; border-left: 3px solid var(--border); }
details.subagent, p.subagent { margin: 6px 0; padding: 4px 10px; border-left: 3px solid var(--border); }
details.thinking { margin: 8px 0; padding: 6px 10px; border-left: 3px solid var(--border); }
details.thinking .md { color: var(--muted); font-style: italic; }
.tool { margin: 10px 0; padding: 8px 10px; border: 1px solid var(--border); border-radius: 6px; background: var(--bg); }
.tool.failed { border-color: var(--error); }
.tool-head { font-size: 0.9em; overflow-wrap: anywhere; }
.tool-name { font-weight: 600; }
.tool .status { color: var(--muted); font-size: 0.85em; }
.tool.failed .status, .stopped { color: var(--error); }
pre.diff .added { color: var(--added); }
pre.diff .removed { color: var(--removed); }
pre.diff .hunk { color: var(--hunk); }
pre.diff .dim { color: var(--muted); }
.usage { margin-top: 8px; color: var(--muted); font-size: 0.8em; text-align: right; }
.compaction { margin: 16px 0; padding: 8px 12px; border: 1px dashed var(--border); border-radius: 8px; }
img.attached { max-width: 100%; border-radius: 6px; border: 1px solid var(--border); }
`;
