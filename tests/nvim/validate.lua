-- In real Neovim: type a type error into a buffer without saving, run :IssuewrightValidate,
-- and report the diagnostics Neovim then shows (vim.diagnostic).
local iw = require('issuewright')
local harness = dofile(vim.env.IW_HARNESS)

harness.run(function(out)
  vim.cmd('edit ' .. vim.fn.fnameescape(vim.env.IW_WORKSPACE .. '/src/lib.rs'))
  local buf = vim.api.nvim_get_current_buf()
  harness.attached(iw)
  out.encoding = iw.client().offset_encoding
  vim.api.nvim_buf_set_lines(buf, 1, 1, false, { vim.env.IW_TYPED })

  out.notes = {}
  vim.notify = function(message)
    table.insert(out.notes, message)
  end
  vim.cmd('IssuewrightValidate')
  -- The command returns at once; the build's answer comes later.
  out.notes_on_return = vim.deepcopy(out.notes)
  assert(vim.wait(60000, function()
    return #vim.diagnostic.get(buf) > 0
  end, 50), 'no diagnostics arrived')
  assert(vim.wait(60000, function()
    return #out.notes > 1
  end, 50), 'the command never said what it found')
  out.diagnostics = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    table.insert(out.diagnostics, { lnum = d.lnum, col = d.col, code = d.code, source = d.source, severity = d.severity })
  end
  out.modified = vim.bo[buf].modified
  out.disk = table.concat(vim.fn.readfile(vim.env.IW_WORKSPACE .. '/src/lib.rs'), '\n') .. '\n'

  -- Saving makes the server read Neovim's settings (a request to Neovim); it must go on
  -- answering afterwards.
  vim.cmd('write')
  local again, err = iw.command('validate', {}, 60000)
  out.after_save = again and again.errors or err
end)
