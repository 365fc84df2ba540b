"""Oracle: a ball launched from the ground at 4 m/s, 45 degrees up: a parabola of range v^2 / g."""

import genesis as gs

RES, FPS, SECONDS = (1280, 640), 60, 5.0

gs.init(backend=gs.gpu, logging_level="warning")
scene = gs.Scene(
    sim_options=gs.options.SimOptions(dt=1.0 / FPS, substeps=240 // FPS, gravity=(0.0, 0.0, -9.81)),
    show_viewer=False,
)
scene.add_entity(gs.morphs.Plane())
ball = scene.add_entity(
    gs.morphs.Sphere(radius=0.05, pos=(-0.8, 0.0, 0.06)),
    material=gs.materials.Rigid(rho=1000.0, friction=0.5),
    surface=gs.surfaces.Default(color=(0.9, 0.6, 0.1)),
)
cam = scene.add_camera(res=RES, pos=(0.0, -4.0, 0.6), lookat=(0.0, 0.0, 0.4), fov=45, GUI=False)
scene.build()
ball.set_dofs_velocity([2.8284, 0.0, 2.8284, 0.0, 0.0, 0.0])
cam.start_recording(save_to_filename="genesis_video.mp4", fps=FPS)
for _ in range(int(SECONDS * FPS)):
    scene.step()
cam.stop_recording()
