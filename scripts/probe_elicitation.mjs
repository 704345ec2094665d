// Probe: a real TypeScript MCP SDK client (what Claude Code, Cursor and OpenCode build on) answers our
// delete question over stdio. Usage, from a folder with the SDK installed:
//   npm install @modelcontextprotocol/sdk && node /path/to/scripts/probe_elicitation.mjs accept|decline|cancel
// It starts `cursor-cloud-agents` (CURSOR_CLOUD_AGENTS_BIN, default: this checkout's .venv) in simulated
// mode with writes and deletion on, deletes the first finished agent, and prints what was asked and answered.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const action = process.argv[2] || "accept";
const transport = new StdioClientTransport({
  command: process.env.CURSOR_CLOUD_AGENTS_BIN ?? new URL("../.venv/bin/cursor-cloud-agents", import.meta.url).pathname,
  env: { CURSOR_MCP_FIXTURE: "1", CURSOR_MCP_ALLOW_WRITES: "1", CURSOR_MCP_ALLOW_DELETE: "1", PATH: process.env.PATH },
  stderr: "ignore",
});
const client = new Client({ name: "ts-probe", version: "1.0.0" }, { capabilities: { elicitation: { form: {} } } });
const asked = [];
client.setRequestHandler(ElicitRequestSchema, async (request) => {
  asked.push(request.params.message);
  return action === "accept" ? { action, content: { confirm: true } } : { action };
});
await client.connect(transport);
const list = await client.callTool({ name: "cursor_list_agents", arguments: { limit: 5 } });
const agents = list.structuredContent.agents;
const idle = agents.find((a) => a.run_status === "FINISHED") || agents[0];
const result = await client.callTool({ name: "cursor_delete_agent", arguments: { agent_id: idle.agent_id ?? idle.id } });
console.log(JSON.stringify({ protocol: client.getServerVersion(), asked, isError: result.isError ?? false, answer: result.structuredContent }));
await client.close();
