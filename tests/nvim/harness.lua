-- Shared by the Neovim scenarios: run `body(out)`, then write `out` (with `error` when the
-- body failed) to $IW_RESULT as JSON and quit with the matching status.
local M = {}

function M.run(body)
  local out = {}
  local ok, failure = pcall(body, out)
  if not ok then
    out.error = tostring(failure)
  end
  local file = assert(io.open(vim.env.IW_RESULT, 'w'))
  file:write(vim.json.encode(out))
  file:close()
  vim.cmd(ok and 'qall!' or 'cquit 1')
end

--- Waits until issuewright is attached to the current buffer and initialized.
function M.attached(iw)
  assert(vim.wait(15000, function()
    local client = iw.client()
    return client ~= nil and client.initialized == true
  end, 20), 'issuewright did not attach')
end

return M
