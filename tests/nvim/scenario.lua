-- Drives one issuewright run in real Neovim and reports what Neovim ends up with.
local iw = require('issuewright')
local harness = dofile(vim.env.IW_HARNESS)
local workspace = vim.env.IW_WORKSPACE

harness.run(function(out)
  local function step(name, value, err)
    if value == nil then
      error(name .. ': ' .. tostring(err))
    end
    return value
  end
  -- Open the file with non-ASCII text and edit it without saving: the run must see the buffer.
  vim.cmd('edit ' .. vim.fn.fnameescape(workspace .. '/src/grüße.rs'))
  local buf = vim.api.nvim_get_current_buf()
  harness.attached(iw)
  vim.api.nvim_buf_set_lines(buf, 0, 0, false, { '// unsaved: Straße' })

  -- Before any run, naming none: said plainly.
  local _, no_run = iw.apply()
  out.before_any_run = no_run
  local run = step('implement', iw.implement('@ISSUE.md', { replay = 'replay.jsonl' }))
  out.status = step('wait', iw.wait(run, 20000))
  out.proposal = step('proposal', iw.proposal(run))
  -- Applied as a user does, from a folder below the root, naming the files as its file
  -- completion gives them: from Neovim's current folder.
  vim.cmd('cd ' .. vim.fn.fnameescape(workspace .. '/src'))
  local said = {}
  local notify = vim.notify
  vim.notify = function(message, level)
    table.insert(said, { message = message, level = level })
  end
  vim.cmd('IssuewrightApply run=' .. run .. ' grüße.rs farewell.rs ../obsolete.txt')
  vim.notify = notify
  out.applied = said
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
