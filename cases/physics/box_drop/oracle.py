"""Oracle: a 30 cm oak cube dropped flat from 1.2 m onto rigid ground, where it lands and rests on a face."""

import genesis as gs

RES, FPS, SECONDS = (1280, 640), 60, 5.0

gs.init(backend=gs.gpu, logging_level="warning")
scene = gs.Scene(
    sim_options=gs.options.SimOptions(dt=1.0 / FPS, substeps=240 // FPS, gravity=(0.0, 0.0, -9.81)),
    show_viewer=False,
)
scene.add_entity(gs.morphs.Plane())
cube = scene.add_entity(
    gs.morphs.Box(size=(0.3, 0.3, 0.3), pos=(0.0, 0.0, 1.2)),
    material=gs.materials.Rigid(rho=700.0, friction=0.6),
    surface=gs.surfaces.Default(color=(0.6, 0.45, 0.25)),
)
cam = scene.add_camera(res=RES, pos=(3.0, -3.0, 1.3), lookat=(0.0, 0.0, 0.6), fov=40, GUI=False)
scene.build()
cam.start_recording(save_to_filename="genesis_video.mp4", fps=FPS)
for _ in range(int(SECONDS * FPS)):
    scene.step()
cam.stop_recording()
