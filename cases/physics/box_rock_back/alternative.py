"""Second solution: a tall wooden block (10 x 10 x 40 cm) set rotating at 1 rad/s about its +x bottom edge rocks back.

Written from the prompt apart from the oracle. It varies: the initial motion computed as omega x r about the pivot
edge (numpy) and given to the six free-joint dofs, two simulation steps per video frame (dt = 1/(2 FPS)) with 1/600
s substeps, the camera added first and placed further back and higher, the ground added after the block.
"""

import genesis as gs
import numpy as np

RES, FPS, SECONDS = (1280, 640), 60, 5.0
STEPS_PER_FRAME = 2
DT = 1.0 / (FPS * STEPS_PER_FRAME)
OMEGA = 1.0  # rad/s about the edge along y at x = +5 cm, z = 0

gs.init(backend=gs.cpu, logging_level="warning")
scene = gs.Scene(
    sim_options=gs.options.SimOptions(dt=DT, substeps=max(1, round(600 * DT)), gravity=(0.0, 0.0, -9.81)),
    show_viewer=False,
)
cam = scene.add_camera(res=RES, pos=(0.1, -2.6, 0.8), lookat=(0.15, 0.0, 0.2), fov=35, GUI=False)
block = scene.add_entity(
    gs.morphs.Box(size=(0.1, 0.1, 0.4), pos=(0.0, 0.0, 0.2)),
    material=gs.materials.Rigid(rho=600.0, friction=0.8),
    surface=gs.surfaces.Default(color=(0.25, 0.35, 0.75)),
)
scene.add_entity(gs.morphs.Plane(), material=gs.materials.Rigid(friction=0.8))
scene.build()

# the block turns about the pivot edge: angular velocity omega along +y (the top goes towards +x), and the
# centre's velocity is omega x (centre - pivot)
angular = np.array([0.0, OMEGA, 0.0])
linear = np.cross(angular, np.array([0.0, 0.0, 0.2]) - np.array([0.05, 0.0, 0.0]))
block.set_dofs_velocity(np.concatenate([linear, angular]).tolist())
cam.start_recording(save_to_filename="genesis_video.mp4", fps=FPS)
for _frame in range(int(SECONDS * FPS)):
    for _ in range(STEPS_PER_FRAME):
        scene.step()
cam.stop_recording()
