"""Oracle: a steel block slides down a 30 degree incline with kinetic friction 0.2 (a = g (sin 30 - 0.2 cos 30))."""

import math

import genesis as gs

RES, FPS, SECONDS = (1280, 640), 60, 5.0
ANGLE = math.radians(30.0)
DOWN = (math.cos(ANGLE), 0.0, -math.sin(ANGLE))  # down the slope
NORMAL = (math.sin(ANGLE), 0.0, math.cos(ANGLE))  # out of the slope's top face
CENTRE, THICKNESS = (0.0, 0.0, 0.6), 0.05


def on_slope(s: float, lift: float) -> tuple[float, float, float]:
    """The point ``s`` metres down the slope from its centre, ``lift`` metres above its top face."""
    return tuple(c + s * d + (0.5 * THICKNESS + lift) * n for c, d, n in zip(CENTRE, DOWN, NORMAL, strict=True))


gs.init(backend=gs.gpu, logging_level="warning")
scene = gs.Scene(
    sim_options=gs.options.SimOptions(dt=1.0 / FPS, substeps=240 // FPS, gravity=(0.0, 0.0, -9.81)),
    show_viewer=False,
)
scene.add_entity(gs.morphs.Plane())
scene.add_entity(
    gs.morphs.Box(size=(2.4, 0.6, THICKNESS), pos=CENTRE, euler=(0.0, 30.0, 0.0), fixed=True),
    material=gs.materials.Rigid(friction=0.2),
    surface=gs.surfaces.Default(color=(0.5, 0.5, 0.55)),
)
block = scene.add_entity(
    gs.morphs.Box(size=(0.2, 0.2, 0.1), pos=on_slope(-0.9, 0.05), euler=(0.0, 30.0, 0.0)),
    material=gs.materials.Rigid(rho=7850.0, friction=0.2),
    surface=gs.surfaces.Default(color=(0.3, 0.3, 0.8)),
)
cam = scene.add_camera(res=RES, pos=(0.0, -3.5, 1.0), lookat=(0.0, 0.0, 0.5), fov=45, GUI=False)
scene.build()
cam.start_recording(save_to_filename="genesis_video.mp4", fps=FPS)
for _ in range(int(SECONDS * FPS)):
    scene.step()
cam.stop_recording()
