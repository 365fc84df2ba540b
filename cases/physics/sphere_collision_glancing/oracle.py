"""Oracle: in weightlessness, a steel ball at 1 m/s strikes an equal ball at rest off centre (impact parameter = r)."""

import genesis as gs

RES, FPS, SECONDS = (1280, 640), 60, 5.0

gs.init(backend=gs.gpu, logging_level="warning")
scene = gs.Scene(
    sim_options=gs.options.SimOptions(dt=1.0 / FPS, substeps=240 // FPS, gravity=(0.0, 0.0, 0.0)),
    show_viewer=False,
)
scene.add_entity(gs.morphs.Plane())  # a floor 0.9 m below the balls, to see them against; never touched
ball = scene.add_entity(
    gs.morphs.Sphere(radius=0.1, pos=(-0.5, 0.1, 1.0)),
    material=gs.materials.Rigid(rho=7850.0, friction=0.02),
    surface=gs.surfaces.Default(color=(0.8, 0.2, 0.2)),
)
target = scene.add_entity(
    gs.morphs.Sphere(radius=0.1, pos=(0.2, 0.0, 1.0)),
    material=gs.materials.Rigid(rho=7850.0, friction=0.01),
    surface=gs.surfaces.Default(color=(0.2, 0.3, 0.8)),
)
cam = scene.add_camera(res=RES, pos=(0.2, -1.0, 3.0), lookat=(0.2, 0.0, 1.0), fov=50, GUI=False)
scene.build()
ball.set_dofs_velocity([1.0, 0.0, 0.0, 0.0, 0.0, 0.0])
cam.start_recording(save_to_filename="genesis_video.mp4", fps=FPS)
for _ in range(int(SECONDS * FPS)):
    scene.step()
cam.stop_recording()
