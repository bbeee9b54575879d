-- Texture by slope: paints `texture` where the ground is steeper than `min_slope` degrees,
-- fully from `full_slope` on, scaled by the brush's falloff and strength; flatter ground is
-- left as it is. The slope is read from the drawn ground a yard around each vertex.
-- Noggit Red's "texture by slope" (its auto-texturing by angle).
local slope = loam.brush("Texture by slope", {
  texture = "Tileset\\Generic\\Rock.blp",
  min_slope = { default = 30, min = 0, max = 90 },
  full_slope = { default = 45, min = 0, max = 90 },
})

local function degrees(x, y)
  local n, s = loam.ground(x + 1, y), loam.ground(x - 1, y)
  local w, e = loam.ground(x, y + 1), loam.ground(x, y - 1)
  if not (n and s and w and e) then return nil end
  local gx, gy = (n - s) / 2, (w - e) / 2
  return math.deg(math.atan(math.sqrt(gx * gx + gy * gy)))
end

function slope.dab(dab, params)
  local span = math.max(params.full_slope - params.min_slope, 0.001)
  for v in dab:vertices() do
    local d = degrees(v.x, v.y)
    if d and d > params.min_slope then
      local want = math.min((d - params.min_slope) / span, 1) * v.weight * dab.strength
      if want > v:alpha(params.texture) then
        v:set_alpha(params.texture, want)
      end
    end
  end
end
