-- In real Neovim: type a definition into a buffer without saving, run :IssuewrightContext,
-- and report the quickfix list it fills.
local iw = require('issuewright')
local harness = dofile(vim.env.IW_HARNESS)
local workspace = vim.env.IW_WORKSPACE

harness.run(function(out)
  vim.cmd('edit ' .. vim.fn.fnameescape(workspace .. '/src/clock.rs'))
  local buf = vim.api.nvim_get_current_buf()
  harness.attached(iw)
  vim.api.nvim_buf_set_lines(buf, -1, -1, false, { 'pub fn refill_tokens(limiter: &mut u32) {}' })

  out.notes = {}
  vim.notify = function(message)
    table.insert(out.notes, message)
  end
  vim.cmd('IssuewrightContext @ISSUE.md top=3')
  local list = vim.fn.getqflist({ title = 1, items = 1, winid = 1 })
  out.title = list.title
  out.window_open = list.winid ~= 0
  out.items = {}
  for _, item in ipairs(list.items) do
    local name = vim.api.nvim_buf_get_name(item.bufnr)
    table.insert(out.items, { path = name:sub(#workspace + 2), lnum = item.lnum, text = item.text })
  end

  -- Why the file being edited ranks where it does, in a scratch buffer.
  vim.cmd('buffer ' .. buf)
  vim.cmd('IssuewrightExplain @ISSUE.md')
  local explained = vim.api.nvim_get_current_buf()
  out.explanation = {
    lines = vim.api.nvim_buf_get_lines(explained, 0, -1, false),
    scratch = vim.bo[explained].buftype == 'nofile',
  }
  vim.cmd('close')

  -- A word `key=value` of a typed issue stays in its text unless the command takes the key.
  local shown = iw.show_context
  iw.show_context = function(issue, top)
    out.split = { issue = issue, top = top }
  end
  vim.cmd('IssuewrightContext Make retries=3 the default top=2')
  iw.show_context = shown

  -- The pack itself, as the first prompt would hold it, in a scratch buffer.
  vim.cmd('IssuewrightPack @ISSUE.md')
  local pack = vim.api.nvim_get_current_buf()
  out.pack = {
    lines = vim.api.nvim_buf_get_lines(pack, 0, -1, false),
    filetype = vim.bo[pack].filetype,
    modifiable = vim.bo[pack].modifiable,
    scratch = vim.bo[pack].buftype == 'nofile',
  }
end)
