"""Second solution: five wooden dominoes 10 cm apart; the first, leaning 20 degrees, topples the row.

Written from the prompt apart from the oracle. It varies: the leaning domino's pose worked out from its lower front
edge (rotation of the box's corner about y, so that edge touches the ground with the centre at x = 0) and given as a
quaternion, the ground's friction (0.6, as the dominoes'; left free), two simulation steps per video frame (dt =
1/(2 FPS)) with 1/600 s substeps, the dominoes created last first, and a camera from higher up.
"""

import math

import genesis as gs

RES, FPS, SECONDS = (1280, 640), 60, 5.0
STEPS_PER_FRAME = 2
DT = 1.0 / (FPS * STEPS_PER_FRAME)
THICK, WIDE, TALL = 0.02, 0.08, 0.2
LEAN = math.radians(20.0)

gs.init(backend=gs.cpu, logging_level="warning")
scene = gs.Scene(
    sim_options=gs.options.SimOptions(dt=DT, substeps=max(1, round(600 * DT)), gravity=(0.0, 0.0, -9.81)),
    show_viewer=False,
)
scene.add_entity(gs.morphs.Plane(), material=gs.materials.Rigid(friction=0.6))
wood = gs.materials.Rigid(rho=700.0, friction=0.6)
for i in (4, 3, 2, 1):
    scene.add_entity(
        gs.morphs.Box(size=(THICK, WIDE, TALL), pos=(0.1 * i, 0.0, TALL / 2)),
        material=wood,
        surface=gs.surfaces.Default(color=(0.95, 0.92, 0.85)),
    )
# turned by LEAN about +y (top towards +x), the box's lowest corner is its lower front one, (+THICK/2, -TALL/2) in
# its own frame, at height -(THICK/2) sin(LEAN) - (TALL/2) cos(LEAN) below the centre
centre_z = 0.5 * THICK * math.sin(LEAN) + 0.5 * TALL * math.cos(LEAN)
scene.add_entity(
    gs.morphs.Box(
        size=(THICK, WIDE, TALL), pos=(0.0, 0.0, centre_z), quat=(math.cos(LEAN / 2), 0.0, math.sin(LEAN / 2), 0.0)
    ),
    material=wood,
    surface=gs.surfaces.Default(color=(0.85, 0.15, 0.15)),
)
cam = scene.add_camera(res=RES, pos=(0.2, -1.0, 0.7), lookat=(0.2, 0.0, 0.05), fov=45, GUI=False)
scene.build()

cam.start_recording(save_to_filename="genesis_video.mp4", fps=FPS)
for _frame in range(int(SECONDS * FPS)):
    for _ in range(STEPS_PER_FRAME):
        scene.step()
cam.stop_recording()
