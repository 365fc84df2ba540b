"""Second solution: a 30 cm oak cube dropped from 1.2 m, faces aligned, onto rigid ground.

Written from the prompt apart from the oracle. It varies: the cube's orientation given explicitly as the identity
quaternion, its and the ground's friction (0.5 each, left free), two simulation steps per video frame (dt = 1/(2
FPS)) with 1/600 s substeps, the camera added first and looking from the +x, -y quadrant from lower down.
"""

import genesis as gs

RES, FPS, SECONDS = (1280, 640), 60, 5.0
STEPS_PER_FRAME = 2
DT = 1.0 / (FPS * STEPS_PER_FRAME)

gs.init(backend=gs.cpu, logging_level="warning")
scene = gs.Scene(
    sim_options=gs.options.SimOptions(dt=DT, substeps=max(1, round(600 * DT)), gravity=(0.0, 0.0, -9.81)),
    show_viewer=False,
)
cam = scene.add_camera(res=RES, pos=(3.2, -1.8, 0.8), lookat=(0.0, 0.0, 0.6), fov=40, GUI=False)
scene.add_entity(gs.morphs.Plane(), material=gs.materials.Rigid(friction=0.5))
cube = scene.add_entity(
    gs.morphs.Box(size=(0.3, 0.3, 0.3), pos=(0.0, 0.0, 1.2), quat=(1.0, 0.0, 0.0, 0.0)),
    material=gs.materials.Rigid(rho=700.0, friction=0.5),
    surface=gs.surfaces.Default(color=(0.55, 0.4, 0.2)),
)
scene.build()

cam.start_recording(save_to_filename="genesis_video.mp4", fps=FPS)
for _frame in range(int(SECONDS * FPS)):
    for _ in range(STEPS_PER_FRAME):
        scene.step()
cam.stop_recording()
