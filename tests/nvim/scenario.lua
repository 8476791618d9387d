-- Drives one issuewright run in real Neovim and writes what Neovim ends up with to $IW_RESULT.
local iw = require('issuewright')
local workspace = vim.env.IW_WORKSPACE
local out = { steps = {} }

local function finish(code)
  local file = assert(io.open(vim.env.IW_RESULT, 'w'))
  file:write(vim.json.encode(out))
  file:close()
  vim.cmd(code == 0 and 'qall!' or ('cquit ' .. code))
end

local function step(name, value, err)
  table.insert(out.steps, name)
  if value == nil then
    out.error = name .. ': ' .. tostring(err)
    finish(1)
  end
  return value
end

local ok, failure = pcall(function()
  -- Open the file with non-ASCII text and edit it without saving: the run must see the buffer.
  vim.cmd('edit ' .. vim.fn.fnameescape(workspace .. '/src/grüße.rs'))
  local buf = vim.api.nvim_get_current_buf()
  step('attach', vim.wait(15000, function()
    local client = iw.client()
    return client ~= nil and client.initialized == true
  end, 20) or nil, 'issuewright did not attach')
  vim.api.nvim_buf_set_lines(buf, 0, 0, false, { '// unsaved: Straße' })

  local run = step('implement', iw.implement('@ISSUE.md', { replay = 'replay.jsonl' }))
  out.status = step('wait', iw.wait(run, 20000))
  out.proposal = step('proposal', iw.proposal(run))
  out.applied = step('apply', iw.apply(run))
  vim.cmd('silent wall')

  out.buffers = {}
  for _, b in ipairs(vim.api.nvim_list_bufs()) do
    local name = vim.api.nvim_buf_get_name(b)
    if vim.api.nvim_buf_is_loaded(b) and name:sub(1, #workspace) == workspace then
      local text = table.concat(vim.api.nvim_buf_get_lines(b, 0, -1, false), '\n')
      if vim.bo[b].eol then
        text = text .. '\n'
      end
      out.buffers[name:sub(#workspace + 2)] = { text = text, modified = vim.bo[b].modified }
    end
  end
end)
if not ok then
  out.error = tostring(failure)
  finish(1)
else
  finish(0)
end
