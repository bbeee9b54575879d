-- Image brush: raises the ground by a grey image laid over the brush's square (white `height`
-- yards at full strength, black nothing), north at the image's top. The image is a PNG or
-- TIFF beside this script (loam.image reads no other file). Noggit Red's image stamp.
local stamp = loam.brush("Image brush", {
  image = "image_brush.png",
  height = { default = 10, min = -200, max = 200 },
})

function stamp.dab(dab, params)
  local img = loam.image(params.image)
  local side = 2 * dab.radius
  for v in dab:vertices() do
    -- u runs east (−y), v south (−x) across the square the radius spans.
    local u = 0.5 + (dab.y - v.y) / side
    local w = 0.5 + (dab.x - v.x) / side
    v.z = v.z + img:at(u, w) * params.height * dab.strength
  end
end
