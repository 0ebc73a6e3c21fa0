# loom in a container, for CI jobs and batch workers: Node 20, git (worktrees, diffs, checkpoints), bubblewrap (the
# sandbox) and ripgrep (the search tools). `docker run --rm -v "$PWD:/work" -e ANTHROPIC_API_KEY loom -p "…"`
FROM node:20-slim

RUN apt-get update \
	&& apt-get install -y --no-install-recommends git bubblewrap ripgrep ca-certificates \
	&& rm -rf /var/lib/apt/lists/*

WORKDIR /opt/loom
# Dependencies first, so a change of loom's code reuses their layer; `prepare` (the build) waits for the sources.
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts
COPY . .
RUN npm run build && npm prune --omit=dev && ln -s /opt/loom/bin/loom /usr/local/bin/loom

# Sessions and settings in a volume of their own; the project is mounted at /work.
ENV LOOM_HOME=/loom-home
WORKDIR /work
ENTRYPOINT ["loom"]
