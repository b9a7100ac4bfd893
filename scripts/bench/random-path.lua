-- wrk script: each request asks for a random code from the file named in CODES_FILE.
local paths = {}
for line in io.lines(os.getenv("CODES_FILE")) do
  paths[#paths + 1] = "/" .. line
end

request = function()
  return wrk.format("GET", paths[math.random(#paths)], { ["User-Agent"] = "Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0" })
end
