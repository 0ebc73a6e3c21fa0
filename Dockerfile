# loom in a container, for CI jobs and batch workers: Node 20, git, bubblewrap (the sandbox) and ripgrep, loom as
# the entrypoint, run as the unprivileged user `node`. See "Running loom at scale" in README.md:
#   docker build -t loom .
#   docker run --rm --user "$(id -u):$(id -g)" -v "$PWD:/work" -e ANTHROPIC_API_KEY loom -p --ephemeral "…"
# test/docker/ lints this file and runs what it puts in the image as far as a machine without Docker can.

# The build. The dependencies first, so a change of loom's code reuses their layer.
FROM node:20-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts
COPY tsconfig.json rolldown.config.mjs ./
COPY bin ./bin
COPY src ./src
RUN npm run build && npm prune --omit=dev

# The image: loom's run-time packages (.ci/runtime-packages, the list .ci/run installs too), then loom as `npm pack`
# ships it (package.json's "files") with its production dependencies.
FROM node:20-slim
COPY .ci/runtime-packages /tmp/runtime-packages
# git trusts every repository: the project mounted at /work belongs to the host's user, not to the container's.
# /loom-home is writable by any user, for `docker run --user`.
RUN apt-get update \
	&& grep -v '^#' /tmp/runtime-packages | cut -d ' ' -f 1 | xargs apt-get install -y --no-install-recommends ca-certificates \
	&& rm -rf /var/lib/apt/lists/* /tmp/runtime-packages \
	&& git config --system --add safe.directory '*' \
	&& mkdir -m 1777 /loom-home \
	&& mkdir /work && chown node:node /work
WORKDIR /opt/loom
COPY package.json README.md ./
COPY bin ./bin
COPY --from=build /src/dist ./dist
COPY --from=build /src/node_modules ./node_modules

# Sessions and settings in a volume of their own; the project is mounted at /work.
ENV PATH=/opt/loom/bin:$PATH LOOM_HOME=/loom-home
USER node
WORKDIR /work
ENTRYPOINT ["loom"]
