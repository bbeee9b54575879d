-- Prop placer: puts `count` doodads of `model` at random places inside the brush, each on the
-- ground, turned at random and sized between `min_scale` and `max_scale`. The places come from
-- a stream seeded by `seed` and the dab's centre, so a stroke repeats exactly.
local placer = loam.brush("Prop placer", {
  model = "World\\Generic\\Passive Doodads\\Crates\\Crate01.m2",
  count = { default = 5, min = 1, max = 100 },
  min_scale = { default = 0.8, min = 0.1, max = 10 },
  max_scale = { default = 1.2, min = 0.1, max = 10 },
  seed = { default = 0, min = 0, max = 1000000 },
})

function placer.dab(dab, params)
  local rng = loam.random(params.seed + math.floor(dab.x * 7 + dab.y * 13))
  local placed = 0
  for _ = 1, params.count do
    -- Uniform over the disc: the square root keeps the centre from crowding.
    local angle = rng:next() * 2 * math.pi
    local r = math.sqrt(rng:next()) * dab.radius
    local x, y = dab.x + r * math.cos(angle), dab.y + r * math.sin(angle)
    if loam.ground(x, y) then
      local scale = params.min_scale + (params.max_scale - params.min_scale) * rng:next()
      loam.place { model = params.model, x = x, y = y, yaw = rng:next() * 360, scale = scale }
      placed = placed + 1
    end
  end
  print(string.format("placed %d %s", placed, params.model))
end
