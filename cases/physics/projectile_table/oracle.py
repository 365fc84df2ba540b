"""Oracle: a ball thrown horizontally at 2 m/s from 1 m up lands 2 m/s * sqrt(2 h / g) away."""

import genesis as gs

RES, FPS, SECONDS = (1280, 640), 60, 5.0

gs.init(backend=gs.gpu, logging_level="warning")
scene = gs.Scene(
    sim_options=gs.options.SimOptions(dt=1.0 / FPS, substeps=240 // FPS, gravity=(0.0, 0.0, -9.81)),
    show_viewer=False,
)
scene.add_entity(gs.morphs.Plane())
ball = scene.add_entity(
    gs.morphs.Sphere(radius=0.05, pos=(-0.5, 0.0, 1.0)),
    material=gs.materials.Rigid(rho=7850.0, friction=0.5),
    surface=gs.surfaces.Default(color=(0.7, 0.7, 0.75)),
)
cam = scene.add_camera(res=RES, pos=(0.0, -3.5, 0.8), lookat=(0.0, 0.0, 0.5), fov=45, GUI=False)
scene.build()
ball.set_dofs_velocity([2.0, 0.0, 0.0, 0.0, 0.0, 0.0])
cam.start_recording(save_to_filename="genesis_video.mp4", fps=FPS)
for _ in range(int(SECONDS * FPS)):
    scene.step()
cam.stop_recording()
