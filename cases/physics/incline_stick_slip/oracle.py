"""Oracle: two equal blocks on a 20 degree incline: the rubber one (friction 0.7 > tan 20) stays put, the PTFE one
(friction 0.1) slides down with a = g (sin 20 - 0.1 cos 20)."""

import math

import genesis as gs

RES, FPS, SECONDS = (1280, 640), 60, 5.0
ANGLE = math.radians(20.0)
DOWN = (math.cos(ANGLE), 0.0, -math.sin(ANGLE))  # down the slope
NORMAL = (math.sin(ANGLE), 0.0, math.cos(ANGLE))  # out of the slope's top face
CENTRE, THICKNESS = (0.0, 0.0, 0.45), 0.05


def on_slope(s: float, y: float, lift: float) -> tuple[float, float, float]:
    """The point ``s`` metres down the slope from its centre, at ``y``, ``lift`` metres above its top face."""
    x, _, z = (c + s * d + (0.5 * THICKNESS + lift) * n for c, d, n in zip(CENTRE, DOWN, NORMAL, strict=True))
    return (x, y, z)


gs.init(backend=gs.gpu, logging_level="warning")
scene = gs.Scene(
    sim_options=gs.options.SimOptions(dt=1.0 / FPS, substeps=240 // FPS, gravity=(0.0, 0.0, -9.81)),
    show_viewer=False,
)
scene.add_entity(gs.morphs.Plane())
scene.add_entity(
    gs.morphs.Box(size=(2.4, 0.8, THICKNESS), pos=CENTRE, euler=(0.0, 20.0, 0.0), fixed=True),
    material=gs.materials.Rigid(friction=0.1),
    surface=gs.surfaces.Default(color=(0.5, 0.5, 0.55)),
)
rubber = scene.add_entity(
    gs.morphs.Box(size=(0.2, 0.2, 0.1), pos=on_slope(-0.8, 0.2, 0.05), euler=(0.0, 20.0, 0.0)),
    material=gs.materials.Rigid(rho=1200.0, friction=0.7),
    surface=gs.surfaces.Default(color=(0.15, 0.15, 0.15)),
)
ptfe = scene.add_entity(
    gs.morphs.Box(size=(0.2, 0.2, 0.1), pos=on_slope(-0.8, -0.2, 0.05), euler=(0.0, 20.0, 0.0)),
    material=gs.materials.Rigid(rho=2200.0, friction=0.1),
    surface=gs.surfaces.Default(color=(0.95, 0.95, 0.9)),
)
cam = scene.add_camera(res=RES, pos=(0.0, -3.5, 1.0), lookat=(0.0, 0.0, 0.4), fov=45, GUI=False)
scene.build()
cam.start_recording(save_to_filename="genesis_video.mp4", fps=FPS)
for _ in range(int(SECONDS * FPS)):
    scene.step()
cam.stop_recording()
