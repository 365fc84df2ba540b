"""Oracle: a wooden block sliding at 2 m/s with friction 0.3 runs into an equal block at rest and pushes it on."""

import genesis as gs

RES, FPS, SECONDS = (1280, 640), 60, 5.0

gs.init(backend=gs.gpu, logging_level="warning")
scene = gs.Scene(
    sim_options=gs.options.SimOptions(dt=1.0 / FPS, substeps=240 // FPS, gravity=(0.0, 0.0, -9.81)),
    show_viewer=False,
)
scene.add_entity(gs.morphs.Plane(), material=gs.materials.Rigid(friction=0.3))
wood = gs.materials.Rigid(rho=500.0, friction=0.3)
striker = scene.add_entity(
    gs.morphs.Box(size=(0.2, 0.2, 0.2), pos=(-0.6, 0.0, 0.1)),
    material=wood,
    surface=gs.surfaces.Default(color=(0.8, 0.3, 0.2)),
)
scene.add_entity(
    gs.morphs.Box(size=(0.2, 0.2, 0.2), pos=(0.0, 0.0, 0.1)),
    material=wood,
    surface=gs.surfaces.Default(color=(0.2, 0.4, 0.8)),
)
cam = scene.add_camera(res=RES, pos=(-0.1, -3.0, 0.9), lookat=(-0.1, 0.0, 0.1), fov=40, GUI=False)
scene.build()
striker.set_dofs_velocity([2.0, 0.0, 0.0, 0.0, 0.0, 0.0])
cam.start_recording(save_to_filename="genesis_video.mp4", fps=FPS)
for _ in range(int(SECONDS * FPS)):
    scene.step()
cam.stop_recording()
