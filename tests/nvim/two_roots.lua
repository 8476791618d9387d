-- In real Neovim: two repositories open, each with its own issuewright. A command without a
-- run id names the last run of the buffer's own server, never the other's.
local iw = require('issuewright')
local harness = dofile(vim.env.IW_HARNESS)
local workspace = vim.env.IW_WORKSPACE

--- Waits until the current buffer's own issuewright (rooted at `root`) is running.
local function attached_at(root)
  assert(vim.wait(15000, function()
    local clients = vim.lsp.get_clients({ name = 'issuewright', bufnr = 0 })
    return #clients == 1 and clients[1].initialized and vim.endswith(clients[1].config.root_dir, root)
  end, 20), 'issuewright did not attach at ' .. root)
end

harness.run(function(out)
  vim.cmd('edit ' .. vim.fn.fnameescape(workspace .. '/alpha/a.txt'))
  attached_at('/alpha')
  local run = assert(iw.implement('say bye', { replay = 'replay.jsonl' }))
  out.alpha_state = assert(iw.wait(run, 20000)).state

  vim.cmd('edit ' .. vim.fn.fnameescape(workspace .. '/beta/b.txt'))
  attached_at('/beta')
  out.clients = #vim.lsp.get_clients({ name = 'issuewright' })
  local _, err = iw.apply()
  out.beta_apply = err

  vim.cmd('edit ' .. vim.fn.fnameescape(workspace .. '/alpha/a.txt'))
  local proposal = assert(iw.proposal())
  out.alpha_files = #proposal.files
end)
