"""Second solution: an upright aluminium cylinder (r 8 cm, h 30 cm) dropped from 0.8 m onto rigid ground.

Written from the prompt apart from the oracle. It varies: the cylinder's axis set vertical by an explicit euler of
zero, its and the ground's friction (0.4 and 0.6, left free), two simulation steps per video frame (dt = 1/(2 FPS))
with 1/600 s substeps, the ground added after the cylinder, and a camera straight from the side.
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
cylinder = scene.add_entity(
    gs.morphs.Cylinder(radius=0.08, height=0.3, pos=(0.0, 0.0, 0.8), euler=(0.0, 0.0, 0.0)),
    material=gs.materials.Rigid(rho=2700.0, friction=0.4),
    surface=gs.surfaces.Default(color=(0.75, 0.78, 0.8)),
)
scene.add_entity(gs.morphs.Plane(), material=gs.materials.Rigid(friction=0.6))
cam = scene.add_camera(res=RES, pos=(0.0, -2.8, 0.7), lookat=(0.0, 0.0, 0.45), fov=38, GUI=False)
scene.build()

cam.start_recording(save_to_filename="genesis_video.mp4", fps=FPS)
for _frame in range(int(SECONDS * FPS)):
    for _ in range(STEPS_PER_FRAME):
        scene.step()
cam.stop_recording()
