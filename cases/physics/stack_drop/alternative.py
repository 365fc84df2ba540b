"""Second solution: three 20 cm wooden cubes dropped one above another (centres 0.5, 0.8, 1.1 m) into a stack.

Written from the prompt apart from the oracle. It varies: the cubes created top first, one shared material object,
the ground's friction (0.6, as the cubes'; left free by the prompt), two simulation steps per video frame (dt = 1/(2
FPS)) with 1/600 s substeps, and a camera from the -x side.
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
wood = gs.materials.Rigid(rho=600.0, friction=0.6)
scene.add_entity(gs.morphs.Plane(), material=gs.materials.Rigid(friction=0.6))
cubes = [
    scene.add_entity(
        gs.morphs.Box(pos=(0.0, 0.0, z), size=(0.2, 0.2, 0.2)),
        material=wood,
        surface=gs.surfaces.Default(color=colour),
    )
    for z, colour in ((1.1, (0.3, 0.5, 0.9)), (0.8, (0.4, 0.8, 0.4)), (0.5, (0.9, 0.4, 0.3)))
]
cam = scene.add_camera(res=RES, pos=(-3.0, -1.5, 1.0), lookat=(0.0, 0.0, 0.5), fov=38, GUI=False)
scene.build()

cam.start_recording(save_to_filename="genesis_video.mp4", fps=FPS)
for _frame in range(int(SECONDS * FPS)):
    for _ in range(STEPS_PER_FRAME):
        scene.step()
cam.stop_recording()
