-- issuewright for Neovim (0.10+): starts `issuewright lsp` for your buffers and offers
-- commands to implement an issue, follow the run, review the proposal and apply it.
--
--   require('issuewright').setup({ cmd = { 'issuewright', 'lsp' } })
--   :IssuewrightImplement @ISSUE.md replay=session.jsonl
--   :IssuewrightProposal        (the diff in a scratch buffer)
--   :IssuewrightApply [run=ID] [files] (all files, or only those named; paths from the current folder)
--   :IssuewrightValidate [tests] (the project's check on your buffers, as diagnostics)
--   :IssuewrightContext @ISSUE.md (the files a run would start from, in the quickfix list)
--   :IssuewrightPack @ISSUE.md    (the context pack a run would start from, in a scratch buffer)
--   :IssuewrightExplain @ISSUE.md [file=PATH] (why this buffer's file, or PATH, ranks where it does)

local M = {}

M.config = {
  cmd = { 'issuewright', 'lsp' },
  -- Folders holding one of these mark the workspace root (else the current directory).
  root_markers = { '.git', 'Cargo.toml', 'pom.xml', 'build.gradle', 'package.json', 'tsconfig.json', 'jsconfig.json' },
  init_options = nil,
  -- How long synchronous requests may take, in milliseconds.
  timeout_ms = 30000,
  -- How long `require("issuewright").validate()` waits (a cold build is slow), in milliseconds;
  -- `:IssuewrightValidate` does not wait: it says what it found when the build ends.
  validate_timeout_ms = 600000,
}

-- The most recent run started from this Neovim (of any issuewright client).
M.last_run = nil
-- The most recent run of each client (by client id): a command without a run id names the
-- last run of the buffer's own issuewright, not one another server never heard of.
local last_runs = {}
-- The runs this Neovim has heard of, so that only a new one becomes the last.
local known_runs = {}

local function notify(message, level)
  vim.notify('issuewright: ' .. message, level or vim.log.levels.INFO)
end

-- Neovim 0.11 calls client methods with `:`; 0.10 with `.`.
local function request_sync(client, method, params, timeout, bufnr)
  if vim.fn.has('nvim-0.11') == 1 then
    return client:request_sync(method, params, timeout, bufnr)
  end
  return client.request_sync(method, params, timeout, bufnr)
end

local function capabilities()
  local caps = vim.lsp.protocol.make_client_capabilities()
  -- Neovim applies documentChanges (versioned edits, create and delete) but does not say so.
  caps.workspace = caps.workspace or {}
  caps.workspace.workspaceEdit = caps.workspace.workspaceEdit or {}
  caps.workspace.workspaceEdit.documentChanges = true
  -- Neovim leaves file watching off on Linux, where its fallback polls folder by folder. With
  -- inotifywait (inotify-tools) it watches the tree whole, so files that change outside the
  -- editor (a checkout, a pull, a generator, a file deleted in a shell) reach the index.
  if vim.fn.executable('inotifywait') == 1 then
    caps.workspace.didChangeWatchedFiles = caps.workspace.didChangeWatchedFiles or {}
    caps.workspace.didChangeWatchedFiles.dynamicRegistration = true
  end
  return caps
end

--- The workspace of the file in `bufnr`: the nearest folder holding the first of the root
--- markers that any folder above it holds, so a package inside a repository belongs to the
--- repository (`.git` comes first; Neovim 0.11 reads the markers in this order, 0.10 took the
--- nearest folder holding any). The folder of a running issuewright that holds the file wins
--- over a nearer one, so one server follows all the files of a workspace.
local function root_of(bufnr)
  local path = vim.fs.normalize(vim.api.nvim_buf_get_name(bufnr))
  local get = vim.lsp.get_clients or vim.lsp.get_active_clients
  for _, client in ipairs(get({ name = 'issuewright' })) do
    local root = client.config.root_dir
    if root and vim.startswith(path, vim.fs.normalize(root) .. '/') then
      return root
    end
  end
  for _, marker in ipairs(M.config.root_markers) do
    local root = vim.fs.root(bufnr, marker)
    if root then
      return root
    end
  end
  return vim.fn.getcwd()
end

--- The issuewright client for the current buffer (or any running one).
function M.client()
  local get = vim.lsp.get_clients or vim.lsp.get_active_clients
  local clients = get({ name = 'issuewright', bufnr = vim.api.nvim_get_current_buf() })
  if #clients == 0 then
    clients = get({ name = 'issuewright' })
  end
  return clients[1]
end

--- Runs `issuewright.<name>` with one argument object; returns the result or nil, error.
function M.command(name, argument, timeout_ms)
  local client = M.client()
  if not client then
    return nil, 'issuewright is not running for this buffer'
  end
  local response, err = request_sync(client, 'workspace/executeCommand', {
    command = 'issuewright.' .. name,
    arguments = { argument },
  }, timeout_ms or M.config.timeout_ms, vim.api.nvim_get_current_buf())
  if not response then
    return nil, err or 'no answer from issuewright'
  end
  if response.err then
    return nil, response.err.message
  end
  return response.result
end

--- Runs `issuewright.<name>` without waiting: Neovim stays usable meanwhile (a cold build
--- takes minutes), and `on_done(result, err)` is called with the answer.
function M.command_async(name, argument, on_done)
  local client = M.client()
  if not client then
    on_done(nil, 'issuewright is not running for this buffer')
    return
  end
  local params = { command = 'issuewright.' .. name, arguments = { argument } }
  local function handler(err, result)
    if err then
      on_done(nil, err.message or tostring(err))
    else
      on_done(result, nil)
    end
  end
  local bufnr = vim.api.nvim_get_current_buf()
  if vim.fn.has('nvim-0.11') == 1 then
    client:request('workspace/executeCommand', params, handler, bufnr)
  else
    client.request('workspace/executeCommand', params, handler, bufnr)
  end
end

--- Starts a run; `opts.replay` names a file of recorded model turns. Returns the run id.
function M.implement(issue, opts)
  opts = opts or {}
  local result, err = M.command('implementIssue', { issue = issue, replay = opts.replay })
  if not result then
    notify(err, vim.log.levels.ERROR)
    return nil, err
  end
  M.last_run = result.runId
  known_runs[result.runId] = true
  local client = M.client()
  if client then
    last_runs[client.id] = result.runId
  end
  notify('run ' .. result.runId .. ' started')
  return result.runId
end

--- `issuewright.<name>` for the run `run_id` (default: the last one), with `extra` arguments;
--- a clear error when there is no run to name.
local function run_command(name, run_id, extra)
  run_id = run_id or M.last_run_here()
  if not run_id then
    return nil, 'no run yet: start one with :IssuewrightImplement, or give a run id'
  end
  return M.command(name, vim.tbl_extend('force', extra or {}, { runId = run_id }))
end

--- The last run of the current buffer's issuewright, if it has had one.
function M.last_run_here()
  local client = M.client()
  return client and last_runs[client.id]
end

--- The status of a run (default: the last one).
function M.status(run_id)
  return run_command('runStatus', run_id)
end

--- Waits until a run is no longer running; returns its final status.
function M.wait(run_id, timeout_ms)
  run_id = run_id or M.last_run_here()
  local status, err
  vim.wait(timeout_ms or M.config.timeout_ms, function()
    status, err = M.status(run_id)
    return status == nil or status.state ~= 'running'
  end, 50)
  return status, err
end

--- The proposal of a run: `{edit, files, diff, ...}`.
function M.proposal(run_id)
  return run_command('proposal', run_id)
end

--- Applies a run's proposal (all files, or only `files`).
function M.apply(run_id, files)
  return run_command('applyProposal', run_id, { files = (files and #files > 0) and files or nil })
end

--- Discards a run's proposal.
function M.discard(run_id)
  return run_command('discardProposal', run_id)
end

--- Cancels a running run.
function M.cancel(run_id)
  return run_command('cancel', run_id)
end

--- Runs the project's check (and with `opts.tests` its tests) on the workspace as the
--- buffers hold it; the diagnostics arrive through Neovim's diagnostics. Returns the summary.
function M.validate(opts)
  opts = opts or {}
  return M.command('validate', { tests = opts.tests == true }, M.config.validate_timeout_ms)
end

--- The files a run for `issue` would start from: `{files = {{path, uri, score, reasons,
--- line, inPack}}, named = {{path, uri, reasons, inPack}}, model, budgetTokens, packTokens, notes,
--- ...}`, best first (`top` of them); `named` holds the other files the issue names.
function M.context(issue, top)
  return M.command('context', { issue = issue, top = top })
end

--- The first `most` names the issue was read as giving with some confidence (weight 0.5
--- and up: in prose, inline code or a frame, not a code block's), each once, in backticks.
local function reading_names(reading, most)
  local names, seen = {}, {}
  for _, name in ipairs((reading and reading.names) or {}) do
    if #names >= most then
      break
    end
    if name.weight >= 0.5 and not seen[name.name] then
      seen[name.name] = true
      table.insert(names, '`' .. name.name .. '`')
    end
  end
  return names
end

--- Puts the files a run for `issue` would start from in the quickfix list: the other files
--- the issue names first, then the ranked ones, best first, each with its place in the first
--- prompt and why it is there, and opens the list; its title names what the issue was read
--- as naming.
function M.show_context(issue, top)
  local result, err = M.context(issue, top)
  if not result then
    notify(err, vim.log.levels.ERROR)
    return nil, err
  end
  local places = { full = 'in full', part = 'in part', map = 'in the map' }
  local items = {}
  local function add(label, file)
    local place = places[file.inPack] or 'not in the prompt'
    table.insert(items, {
      filename = (file.uri and file.uri ~= vim.NIL) and vim.uri_to_fname(file.uri) or file.path,
      lnum = (file.line and file.line ~= vim.NIL) and file.line or 1,
      text = string.format('%s %s: %s', label, place, table.concat(file.reasons, '; ')),
    })
  end
  for _, file in ipairs(result.named or {}) do
    add('named,', file)
  end
  for rank, file in ipairs(result.files) do
    add(rank .. '.', file)
  end
  local title = string.format('issuewright context for %s: %d of %d tokens', result.model, result.packTokens, result.budgetTokens)
  local names = reading_names(result.reading, 5)
  if #names > 0 then
    title = title .. '; read: ' .. table.concat(names, ', ')
  end
  vim.fn.setqflist({}, ' ', { title = title, items = items })
  for _, note in ipairs(result.notes or {}) do
    notify(note, vim.log.levels.WARN)
  end
  vim.cmd('copen')
  return result
end

--- Opens `lines` in a new read-only scratch buffer of `filetype` below the others.
local function show_scratch(lines, filetype)
  vim.cmd('botright new')
  local buf = vim.api.nvim_get_current_buf()
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  vim.bo[buf].buftype = 'nofile'
  vim.bo[buf].bufhidden = 'wipe'
  vim.bo[buf].filetype = filetype
  vim.bo[buf].modifiable = false
end

--- Shows the context pack a run for `issue` would start from, as its first prompt holds it,
--- in a scratch buffer.
function M.show_pack(issue)
  local result, err = M.context(issue, 1)
  if not result then
    notify(err, vim.log.levels.ERROR)
    return nil, err
  end
  local lines = vim.split(result.packText or '', '\n', { plain = true })
  local heading = string.format('<!-- issuewright context pack for %s: %d of %d tokens -->', result.model, result.packTokens, result.budgetTokens)
  table.insert(lines, 1, heading)
  for _, note in ipairs(result.notes or {}) do
    notify(note, vim.log.levels.WARN)
  end
  show_scratch(lines, 'markdown')
  return result
end

--- Shows why `file` (a path; default: the current buffer's file) ranks where it does for
--- `issue`: its place, and each signal's value and weight, in a scratch buffer.
function M.show_explanation(issue, file)
  file = file or vim.api.nvim_buf_get_name(0)
  if file == '' then
    notify('give the file to explain (file=PATH), or run this from a buffer of the workspace', vim.log.levels.ERROR)
    return nil
  end
  local result, err = M.command('context', { issue = issue, top = 1, explain = { file } })
  if not result then
    notify(err, vim.log.levels.ERROR)
    return nil, err
  end
  local lines = {}
  for _, explained in ipairs(result.explained or {}) do
    vim.list_extend(lines, explained.lines)
  end
  show_scratch(lines, 'text')
  return result
end

--- Shows a run's proposal as a diff in a scratch buffer.
function M.show_proposal(run_id)
  local proposal, err = M.proposal(run_id)
  if not proposal then
    notify(err, vim.log.levels.ERROR)
    return
  end
  local lines = vim.split(proposal.diff, '\n', { plain = true })
  table.insert(lines, 1, string.format('# issuewright run %s (%s): %s', proposal.runId, proposal.state, proposal.title))
  for _, note in ipairs(proposal.notes or {}) do
    table.insert(lines, 2, '# note: ' .. note)
  end
  show_scratch(lines, 'diff')
end

local function client_notify(client, method, params)
  if vim.fn.has('nvim-0.11') == 1 then
    return client:notify(method, params)
  end
  return client.notify(method, params)
end

local function is_stopped(client)
  if vim.fn.has('nvim-0.11') == 1 then
    return client:is_stopped()
  end
  return client.is_stopped()
end

-- The folder watchers, by client id. Neovim's inotify watcher reads `CREATE,ISDIR` and
-- `MOVED_TO,ISDIR` as no event it knows and drops them, so a folder made, moved in or out,
-- or removed outside the editor (a checkout, `mv`, `git mv`) would never reach the server,
-- nor the files inside it: these report the folders, which the server reads whole.
local folder_watchers = {}

--- `text` with the characters a POSIX extended regular expression reads escaped.
local function ere_escaped(text)
  return (text:gsub('[][^$.|?*+(){}\\]', '\\%0'))
end

--- Reports to `client` the folders that come and go below its root, as
--- `workspace/didChangeWatchedFiles`, while inotifywait watches files for Neovim.
local function watch_folders(client)
  local root = client.config.root_dir
  if not root or folder_watchers[client.id] or vim.fn.executable('inotifywait') ~= 1 then
    return
  end
  local queue, pending, partial = {}, false, ''
  local function flush()
    pending = false
    local changes = queue
    queue = {}
    if #changes > 0 and not is_stopped(client) then
      client_notify(client, 'workspace/didChangeWatchedFiles', { changes = changes })
    end
  end
  local function on_line(line)
    local events, path = line:match('^(%S+) (.+)$')
    if not events or not events:find('ISDIR', 1, true) then
      return
    end
    local kind
    if events:find('CREATE', 1, true) or events:find('MOVED_TO', 1, true) then
      kind = 1
    elseif events:find('DELETE', 1, true) or events:find('MOVED_FROM', 1, true) then
      kind = 3
    end
    if kind then
      table.insert(queue, { uri = vim.uri_from_fname(path), type = kind })
      if not pending then
        pending = true
        vim.defer_fn(flush, 100)
      end
    end
  end
  local watcher
  local ok, started = pcall(vim.system, {
    'inotifywait', '--quiet', '--monitor', '--recursive', '--no-dereference',
    '--event', 'create', '--event', 'delete', '--event', 'move',
    '--format', '%e %w%f',
    -- Dependencies and build output hold most folders and none the index reads: leaving them
    -- out keeps the watch within the system's limit of inotify watches.
    '--exclude', '^' .. ere_escaped(root) .. '/(.*/)?(node_modules|target)(/|$)',
    string.format('@%s/.git', root), root,
  }, {
    stderr = true,
    stdout = function(_, data)
      if not data then
        return
      end
      vim.schedule(function()
        -- A read may end inside a line: its start waits for the rest.
        local lines = vim.split(partial .. data, '\n', { plain = true })
        partial = table.remove(lines)
        for _, line in ipairs(lines) do
          on_line(line)
        end
      end)
    end,
  }, function(ended)
    vim.schedule(function()
      -- Stopped by us (the client or Neovim ended) is the end; anything else is said.
      if folder_watchers[client.id] ~= watcher or not watcher then
        return
      end
      folder_watchers[client.id] = nil
      local why = vim.trim(ended.stderr or ''):match('[^\n]*')
      notify(string.format(
        'the folder watcher (inotifywait) stopped (%s): folders made, moved or removed outside Neovim are no longer seen; raise fs.inotify.max_user_watches if it says the limit was reached, then restart the client',
        why ~= '' and why or ('exit ' .. tostring(ended.code))
      ), vim.log.levels.WARN)
    end)
  end)
  if ok then
    watcher = started
    folder_watchers[client.id] = watcher
  end
end

local function stop_watching_folders(client_id)
  local watcher = folder_watchers[client_id]
  folder_watchers[client_id] = nil
  if watcher then
    pcall(watcher.kill, watcher, 15)
  end
end

vim.api.nvim_create_autocmd('VimLeavePre', {
  callback = function()
    for client_id in pairs(folder_watchers) do
      stop_watching_folders(client_id)
    end
  end,
})

local function start(bufnr)
  if vim.bo[bufnr].buftype ~= '' or vim.api.nvim_buf_get_name(bufnr) == '' then
    return
  end
  local root = root_of(bufnr)
  vim.lsp.start({
    name = 'issuewright',
    cmd = M.config.cmd,
    root_dir = root,
    capabilities = capabilities(),
    init_options = M.config.init_options,
    on_init = function(client)
      watch_folders(client)
    end,
    on_exit = function(_, _, client_id)
      stop_watching_folders(client_id)
      last_runs[client_id] = nil
    end,
    handlers = {
      ['issuewright/runEvent'] = function(_, params, ctx)
        -- A run started another way (another plugin's command) is the last once heard of.
        if params and params.runId and not known_runs[params.runId] then
          known_runs[params.runId] = true
          M.last_run = params.runId
          if ctx and ctx.client_id then
            last_runs[ctx.client_id] = params.runId
          end
        end
      end,
    },
  }, { bufnr = bufnr })
end

--- The issue text and the command's options among `fargs`: a word `key=value` is an option
--- only for a `key` the command takes (`replay`, `top`, `file`), so `retries=3` in an issue
--- stays in its text.
local function split_args(fargs, keys)
  local words, options = {}, {}
  for _, word in ipairs(fargs) do
    local key, value = word:match('^(%w+)=(.+)$')
    if key and vim.tbl_contains(keys or {}, key) then
      options[key] = value
    else
      table.insert(words, word)
    end
  end
  return table.concat(words, ' '), options
end

--- `path` as the server reads it: relative paths are Neovim's, from its current folder,
--- while the server reads them from the workspace's root.
local function absolute(path)
  return path and vim.fn.simplify(vim.fn.fnamemodify(path, ':p')) or nil
end

--- An issue given as `@FILE` with its file's absolute path; text as it is.
local function issue_arg(issue)
  local file = issue:match('^@(.+)$')
  return file and ('@' .. absolute(file)) or issue
end

local function report(result, err)
  if result then
    notify(vim.inspect(result))
  else
    notify(err, vim.log.levels.ERROR)
  end
end

--- Configures the plugin and attaches issuewright to file buffers.
function M.setup(opts)
  M.config = vim.tbl_deep_extend('force', M.config, opts or {})
  local group = vim.api.nvim_create_augroup('issuewright', { clear = true })
  vim.api.nvim_create_autocmd({ 'BufReadPost', 'BufNewFile' }, {
    group = group,
    callback = function(args)
      start(args.buf)
    end,
  })
  for _, buf in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(buf) then
      start(buf)
    end
  end

  vim.api.nvim_create_user_command('IssuewrightImplement', function(cmd)
    local issue, options = split_args(cmd.fargs, { 'replay' })
    M.implement(issue_arg(issue), { replay = absolute(options.replay) })
  end, { nargs = '+', desc = 'issuewright: implement an issue (text or @FILE) [replay=FILE]' })
  vim.api.nvim_create_user_command('IssuewrightContext', function(cmd)
    local issue, options = split_args(cmd.fargs, { 'top' })
    M.show_context(issue_arg(issue), tonumber(options.top))
  end, { nargs = '+', desc = 'issuewright: the files a run would start from (text or @FILE) [top=N]' })
  vim.api.nvim_create_user_command('IssuewrightPack', function(cmd)
    local issue = split_args(cmd.fargs, {})
    M.show_pack(issue_arg(issue))
  end, { nargs = '+', desc = 'issuewright: the context pack a run would start from (text or @FILE)' })
  vim.api.nvim_create_user_command('IssuewrightExplain', function(cmd)
    local issue, options = split_args(cmd.fargs, { 'file' })
    M.show_explanation(issue_arg(issue), absolute(options.file))
  end, { nargs = '+', desc = 'issuewright: why this file (or file=PATH) ranks where it does for an issue (text or @FILE)' })
  vim.api.nvim_create_user_command('IssuewrightStatus', function(cmd)
    report(M.status(cmd.fargs[1]))
  end, { nargs = '?', desc = 'issuewright: status of a run' })
  vim.api.nvim_create_user_command('IssuewrightProposal', function(cmd)
    M.show_proposal(cmd.fargs[1])
  end, { nargs = '?', desc = "issuewright: show a run's proposal as a diff" })
  vim.api.nvim_create_user_command('IssuewrightApply', function(cmd)
    local _, options = split_args(cmd.fargs, { 'run' })
    local files = {}
    for _, word in ipairs(cmd.fargs) do
      if not word:match('^run=') then
        table.insert(files, absolute(word))
      end
    end
    report(M.apply(options.run, files))
  end, { nargs = '*', complete = 'file', desc = "issuewright: apply a run's proposal (the last run's, or run=ID) [files]" })
  vim.api.nvim_create_user_command('IssuewrightDiscard', function(cmd)
    report(M.discard(cmd.fargs[1]))
  end, { nargs = '?', desc = "issuewright: discard a run's proposal" })
  vim.api.nvim_create_user_command('IssuewrightCancel', function(cmd)
    report(M.cancel(cmd.fargs[1]))
  end, { nargs = '?', desc = 'issuewright: cancel a run' })
  vim.api.nvim_create_user_command('IssuewrightValidate', function(cmd)
    -- In the background: the editor stays usable while the project builds.
    notify('checking the workspace; the diagnostics follow')
    M.command_async('validate', { tests = cmd.fargs[1] == 'tests' }, function(result, err)
      if not result then
        notify(err, vim.log.levels.ERROR)
        return
      end
      local first = result.reports and result.reports[#result.reports] or {}
      notify((first.summary or ''):match('[^\n]*'), result.passed and vim.log.levels.INFO or vim.log.levels.WARN)
    end)
  end, { nargs = '?', complete = function()
    return { 'tests' }
  end, desc = 'issuewright: check the workspace (buffers included) [tests]' })
end

return M
