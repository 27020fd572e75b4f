-- wrk script for the durable-write figures of scripts/bench.sh: PATCHes the title of
-- controller "c0" (a change, so every request commits a new version), cycling through the
-- sessions named in the environment variable BENCH_SESSIONS (comma-separated). Each wrk thread
-- starts at its own offset, so with as many sessions as connections the requests in flight
-- mostly touch different sessions; with one session they all queue on its lock.
local sessions = {}
for sid in string.gmatch(os.getenv("BENCH_SESSIONS") or "", "[^,]+") do
  sessions[#sessions + 1] = sid
end
local threads = 0
local counter = 0

function setup(thread)
  thread:set("offset", threads)
  threads = threads + 1
end

function init(args)
  counter = (offset or 0) * 7919
end

function request()
  counter = counter + 1
  local sid = sessions[(counter % #sessions) + 1]
  return wrk.format("PATCH", "/v1/sessions/" .. sid .. "/controllers/c0",
    { ["Content-Type"] = "application/json" }, '{"title":"t' .. counter .. '"}')
end
