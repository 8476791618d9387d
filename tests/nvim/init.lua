-- Minimal Neovim set-up for the end-to-end test: the plugin from editors/nvim, the binary under test.
vim.opt.runtimepath:prepend(vim.env.IW_PLUGIN)
vim.opt.swapfile = false
vim.opt.shadafile = 'NONE'
-- In headless Neovim, window/showMessageRequest waits on vim.ui.select: answer it at once.
vim.ui.select = function(_, _, on_choice)
  on_choice(nil)
end
require('issuewright').setup({ cmd = { vim.env.ISSUEWRIGHT_BIN, 'lsp' } })
