-- Height noise: raises and lowers the ground by value noise (loam.noise), `amplitude` yards at
-- the brush's centre at full strength, fading with the brush. The same seed gives the same
-- bumps wherever the brush goes, so strokes join up. Noggit Red's "Noise" brush.
local noise = loam.brush("Height noise", {
  amplitude = { default = 4, min = 0, max = 100 },
  scale = { default = 20, min = 1, max = 500 },
  seed = { default = 1, min = 0, max = 1000000 },
})

function noise.dab(dab, params)
  for v in dab:vertices() do
    local n = loam.noise(v.x, v.y, params.scale, params.seed)
    v.z = v.z + n * params.amplitude * v.weight * dab.strength
  end
end
