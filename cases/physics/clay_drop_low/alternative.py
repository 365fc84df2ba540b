"""Second solution: a cube of soft clay (MPM, von Mises yield 5 kPa) dropped from 0.35 m squashes and stays squashed.

Written from the prompt apart from the oracle. It varies: an MPM grid of 28 cells per metre sampled at half a cell
(particle size 1/56 m, finer than the grid's default), two simulation steps per video frame (dt = 1/(2 FPS)) with
substeps of about 1/1200 s, the MPM domain reaching 15 cm below the ground, and a camera from the -x, -y side.
"""

import genesis as gs

RES, FPS, SECONDS = (1280, 640), 60, 5.0
STEPS_PER_FRAME = 2
DT = 1.0 / (FPS * STEPS_PER_FRAME)
GRID = 28

gs.init(backend=gs.cpu, logging_level="warning")
scene = gs.Scene(
    sim_options=gs.options.SimOptions(dt=DT, substeps=max(1, round(1200 * DT)), gravity=(0.0, 0.0, -9.81)),
    mpm_options=gs.options.MPMOptions(
        lower_bound=(-0.5, -0.5, -0.15), upper_bound=(0.5, 0.5, 0.6), grid_density=GRID, particle_size=0.5 / GRID
    ),
    show_viewer=False,
)
scene.add_entity(gs.morphs.Plane())
lump = scene.add_entity(
    gs.morphs.Box(pos=(0.0, 0.0, 0.35), size=(0.2, 0.2, 0.2)),
    material=gs.materials.MPM.ElastoPlastic(rho=1500.0, E=1e5, nu=0.3, use_von_mises=True, von_mises_yield_stress=5e3),
    surface=gs.surfaces.Default(color=(0.8, 0.55, 0.35)),
)
cam = scene.add_camera(res=RES, pos=(-1.5, -1.5, 0.8), lookat=(0.0, 0.0, 0.2), fov=38, GUI=False)
scene.build()

cam.start_recording(save_to_filename="genesis_video.mp4", fps=FPS)
for _frame in range(int(SECONDS * FPS)):
    for _ in range(STEPS_PER_FRAME):
        scene.step()
cam.stop_recording()
