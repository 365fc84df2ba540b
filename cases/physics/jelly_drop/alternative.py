"""Second solution: an elastic jelly cube (MPM, E 50 kPa) dropped from 0.5 m bounces and keeps its shape.

Written from the prompt apart from the oracle. It varies: an MPM grid of 40 cells per metre sampled on a regular
lattice, two simulation steps per video frame (dt = 1/(2 FPS)) with substeps of about 1/1500 s, the MPM domain
reaching 15 cm below the ground (the rigid plane is the floor the body meets), the camera added first and placed
straight from the side.
"""

import genesis as gs

RES, FPS, SECONDS = (1280, 640), 60, 5.0
STEPS_PER_FRAME = 2
DT = 1.0 / (FPS * STEPS_PER_FRAME)
GRID = 40

gs.init(backend=gs.cpu, logging_level="warning")
scene = gs.Scene(
    sim_options=gs.options.SimOptions(dt=DT, substeps=max(1, round(1500 * DT)), gravity=(0.0, 0.0, -9.81)),
    mpm_options=gs.options.MPMOptions(
        lower_bound=(-0.35, -0.35, -0.15), upper_bound=(0.35, 0.35, 0.8), grid_density=GRID
    ),
    show_viewer=False,
)
cam = scene.add_camera(res=RES, pos=(0.0, -2.0, 0.45), lookat=(0.0, 0.0, 0.3), fov=40, GUI=False)
scene.add_entity(gs.morphs.Plane())
body = scene.add_entity(
    gs.morphs.Box(pos=(0.0, 0.0, 0.5), size=(0.2, 0.2, 0.2)),
    material=gs.materials.MPM.Elastic(rho=1000.0, E=5e4, nu=0.3, sampler="regular"),
    surface=gs.surfaces.Default(color=(0.95, 0.35, 0.45)),
)
scene.build()

cam.start_recording(save_to_filename="genesis_video.mp4", fps=FPS)
for _frame in range(int(SECONDS * FPS)):
    for _ in range(STEPS_PER_FRAME):
        scene.step()
cam.stop_recording()
