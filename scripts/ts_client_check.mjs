// The server through the TypeScript SDK client (@modelcontextprotocol/sdk), as Claude Code, OpenCode and the
// Cursor CLI build theirs: the handshake, an image artifact's result shape, and progress on a wait with
// OpenCode's call options (resetTimeoutOnProgress with an onprogress callback).
//
//   npm install --prefix DIR @modelcontextprotocol/sdk@1.32.2   # a scratch folder outside the repo
//   cp scripts/ts_client_check.mjs DIR/ && CURSOR_MCP_FIXTURE=1 node DIR/ts_client_check.mjs PYTHON -m cursor_cloud_agents
//
// It prints one JSON object on stdout (what tests/e2e/test_ts_sdk_client.py checks) and exits 0, or prints the
// error on stderr and exits 1. The server runs in simulated mode (its demo world): nothing is paid.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";

const [command, ...args] = process.argv.slice(2);
const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/tmp", CURSOR_MCP_FIXTURE: "1" };
for (const name of ["CURSOR_MCP_STATE_DIR", "CURSOR_MCP_LOG_LEVEL"]) {
  if (process.env[name]) env[name] = process.env[name];
}

function call(client, name, args, options) {
  return client.callTool({ name, arguments: args }, undefined, options);
}

function json(result) {
  return JSON.parse(result.content.find((block) => block.type === "text").text);
}

async function main() {
  const transport = new StdioClientTransport({ command, args, env, stderr: "ignore" });
  const client = new Client({ name: "ts-sdk-check", version: "0.0.1" });
  await client.connect(transport);
  const report = {
    server: client.getServerVersion(),
    protocol_asked: LATEST_PROTOCOL_VERSION,
    server_capabilities: Object.keys(client.getServerCapabilities() ?? {}).sort(),
  };

  const agents = json(await call(client, "cursor_list_agents", { limit: 20 })).agents;
  const shots = agents.find((agent) => agent.name?.startsWith("Take screenshots"));
  const image = await call(client, "cursor_read_artifact", { agent_id: shots.id, path: "artifacts/screenshot.png" });
  report.image = {
    content_types: image.content.map((block) => block.type),
    has_structured_content: "structuredContent" in image,
    text_json_keys: Object.keys(json(image)).sort(),
    image_mime_type: image.content.find((block) => block.type === "image")?.mimeType ?? null,
    image_base64_chars: image.content.find((block) => block.type === "image")?.data.length ?? 0,
  };
  const listed = await call(client, "cursor_list_artifacts", { agent_id: shots.id });
  report.plain = { content_types: listed.content.map((block) => block.type), has_structured_content: "structuredContent" in listed };

  const running = agents.find((agent) => agent.name?.startsWith("Fix the flaky"));
  const seen = [];
  const started = Date.now();
  const wait = await call(client, "cursor_get_run", { agent_id: running.id, run_id: running.latest_run_id, wait_seconds: 6, activity: false }, {
    timeout: 3000, resetTimeoutOnProgress: true, onprogress: (progress) => seen.push({ at_ms: Date.now() - started, message: progress.message }),
  });
  report.wait = { is_error: wait.isError ?? false, timed_out: json(wait).timed_out ?? false, progress: seen, ms: Date.now() - started };
  await client.close();
  process.stdout.write(JSON.stringify(report) + "\n");
}

main().then(
  () => process.exit(0),
  (error) => {
    process.stderr.write(`ts_client_check: ${error?.stack ?? error}\n`);
    process.exit(1);
  },
);
