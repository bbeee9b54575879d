-- Clear a model: removes the doodads of `model` (any case; every doodad when empty) whose place
-- lies under the brush. Noggit Red's "clear models" brush.
local clear = loam.brush("Clear model", { model = "" })

function clear.dab(dab, params)
  local want = params.model:lower():gsub("/", "\\")
  local removed = 0
  for _, o in ipairs(dab:objects()) do
    if want == "" or o.model:lower():gsub("/", "\\") == want then
      o:remove()
      removed = removed + 1
    end
  end
  if removed > 0 then print(string.format("removed %d doodad(s)", removed)) end
end
