-- In real Neovim: the files of a package inside a repository and the repository's own go to
-- one issuewright, rooted at the repository; files created and deleted outside the editor
-- reach its index.
local iw = require('issuewright')
local harness = dofile(vim.env.IW_HARNESS)
local workspace = vim.env.IW_WORKSPACE

local function ranked(issue)
  local result = assert(iw.context(issue, 20))
  local paths = {}
  for _, file in ipairs(result.files) do
    paths[file.path] = true
  end
  return paths
end

local function write(path, text)
  local file = assert(io.open(path, 'w'))
  file:write(text)
  file:close()
end

harness.run(function(out)
  vim.cmd('edit ' .. vim.fn.fnameescape(workspace .. '/crates/core/src/lib.rs'))
  harness.attached(iw)
  out.root = iw.client().config.root_dir
  vim.cmd('edit ' .. vim.fn.fnameescape(workspace .. '/src/main.rs'))
  harness.attached(iw)
  local get = vim.lsp.get_clients or vim.lsp.get_active_clients
  out.clients = #get({ name = 'issuewright' })
  out.watching = vim.fn.executable('inotifywait') == 1

  local issue = '`drain_bucket` forgets to call `refill_tokens`'
  out.drain_before = ranked(issue)['crates/core/src/drain.rs'] == true
  -- Written in a shell, not in the editor; again until the watcher, registered once the
  -- server is initialized, is seen to report it.
  local refill = workspace .. '/crates/core/src/refill.rs'
  out.created_seen = vim.wait(20000, function()
    write(refill, 'pub fn refill_tokens() {}\n')
    return vim.wait(1000, function()
      return ranked(issue)['crates/core/src/refill.rs'] == true
    end, 100)
  end, 10)
  os.remove(workspace .. '/crates/core/src/drain.rs')
  out.deleted_seen = vim.wait(10000, function()
    return ranked(issue)['crates/core/src/drain.rs'] == nil
  end, 100)

  -- A folder made outside the workspace and moved in with its file, then moved out again, in
  -- a shell: the watcher sees the folder alone, never the file inside it.
  local staging = workspace .. '/../staging-valves'
  vim.fn.mkdir(staging, 'p')
  write(staging .. '/open.rs', 'pub fn open_valve() {}\n')
  local valves = workspace .. '/crates/core/src/valves'
  local valve_issue = '`open_valve` sticks'
  assert(os.rename(staging, valves))
  out.moved_in_seen = vim.wait(10000, function()
    return ranked(valve_issue)['crates/core/src/valves/open.rs'] == true
  end, 100)
  assert(os.rename(valves, staging))
  out.moved_out_seen = vim.wait(10000, function()
    return ranked(valve_issue)['crates/core/src/valves/open.rs'] == nil
  end, 100)
end)
