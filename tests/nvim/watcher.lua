-- In real Neovim: the plugin's folder watcher (inotifywait) ends on its own, as it does when
-- the system's limit of inotify watches is reached, and the user is told.
local iw = require('issuewright')
local harness = dofile(vim.env.IW_HARNESS)

harness.run(function(out)
  out.notes = {}
  vim.notify = function(message)
    table.insert(out.notes, message)
  end
  vim.cmd('edit ' .. vim.fn.fnameescape(vim.env.IW_WORKSPACE .. '/src/lib.rs'))
  harness.attached(iw)
  out.told = vim.wait(20000, function()
    for _, note in ipairs(out.notes) do
      if note:find('folder watcher', 1, true) then
        return true
      end
    end
    return false
  end, 50)
end)
