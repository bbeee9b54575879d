-- Terrace: every vertex under the brush snaps down to a multiple of `step` yards, so slopes
-- become flat steps. Noggit Red's "Terrace" brush.
local terrace = loam.brush("Terrace", { step = { default = 8, min = 1, max = 50 } })

function terrace.dab(dab, params)
  for v in dab:vertices() do
    v.z = math.floor(v.z / params.step) * params.step
  end
end
