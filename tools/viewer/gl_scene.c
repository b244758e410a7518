/* OpenGL drawing of the viewer's pictures (see gl_scene.h). Spheres are
 * drawn in two batches: most as single points (one vertex each, sized in
 * the vertex shader), which a software OpenGL sets up much faster than
 * quads, and as screen-facing quads those that are large on screen, the
 * large sphere, or partly off-screen (a point is clipped by its centre).
 * Either way the fragment shader casts the pixel's eye ray at the sphere
 * and discards pixels that miss it. */
#include "gl_scene.h"

#include <GL/gl.h>
#include <GL/glext.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "font.h"
#include "plane_lines.h"
#include "scene_style.h"

/* Spheres larger than this on screen (radius, pixels) are quads. */
#define POINT_MAX_RADIUS 48.0

typedef struct shader_program {
    GLuint id;
    GLint u_view, u_proj, u_expand, u_margin, u_pixel, u_viewport;
} shader_program;

typedef struct sphere_vertex {
    float center[3];
    float corner[2];
    float radius;
    unsigned char rgba[4];
} sphere_vertex;

typedef struct vertex_list {
    sphere_vertex *v;
    size_t n, cap;
} vertex_list;

struct gl_scene {
    PFNGLCREATESHADERPROC CreateShader;
    PFNGLSHADERSOURCEPROC ShaderSource;
    PFNGLCOMPILESHADERPROC CompileShader;
    PFNGLGETSHADERIVPROC GetShaderiv;
    PFNGLGETSHADERINFOLOGPROC GetShaderInfoLog;
    PFNGLCREATEPROGRAMPROC CreateProgram;
    PFNGLATTACHSHADERPROC AttachShader;
    PFNGLBINDATTRIBLOCATIONPROC BindAttribLocation;
    PFNGLLINKPROGRAMPROC LinkProgram;
    PFNGLGETPROGRAMIVPROC GetProgramiv;
    PFNGLGETPROGRAMINFOLOGPROC GetProgramInfoLog;
    PFNGLUSEPROGRAMPROC UseProgram;
    PFNGLGETUNIFORMLOCATIONPROC GetUniformLocation;
    PFNGLUNIFORMMATRIX4FVPROC UniformMatrix4fv;
    PFNGLUNIFORM1FPROC Uniform1f;
    PFNGLUNIFORM2FPROC Uniform2f;
    PFNGLVERTEXATTRIBPOINTERPROC VertexAttribPointer;
    PFNGLENABLEVERTEXATTRIBARRAYPROC EnableVertexAttribArray;
    PFNGLDISABLEVERTEXATTRIBARRAYPROC DisableVertexAttribArray;
    PFNGLDELETEPROGRAMPROC DeleteProgram;
    PFNGLDELETESHADERPROC DeleteShader;
    PFNGLWINDOWPOS2IPROC WindowPos2i;

    shader_program programs[2][2]; /* [ortho][points] */
    vertex_list points, quads;
    unsigned char *hud;
    size_t hud_cap;
};

enum { ATTR_CENTER = 0, ATTR_CORNER = 1, ATTR_RADIUS = 2, ATTR_COLOR = 3 };

static const char *vertex_source =
    "attribute vec3 a_center;\n"
    "attribute vec2 a_corner;\n"
    "attribute float a_radius;\n"
    "attribute vec4 a_color;\n"
    "uniform mat4 u_view;\n"
    "uniform mat4 u_proj;\n"
    "uniform float u_expand;\n"
    "uniform float u_margin;\n"
    "uniform float u_pixel;\n"
    "uniform vec2 u_viewport;\n"
    "varying vec3 v_center;\n"
    "varying float v_radius;\n"
    "varying vec4 v_color;\n"
    "void main() {\n"
    "    vec4 c = u_view * vec4(a_center, 1.0);\n"
    "    v_center = c.xyz;\n"
    "    v_radius = a_radius;\n"
    "    v_color = a_color;\n"
    "#ifdef POINTS\n"
    "    gl_Position = u_proj * c;\n"
    "#ifdef ORTHO\n"
    "    float rpix = a_radius / u_pixel;\n"
    "#else\n"
    "    float rpix = a_radius * u_proj[1][1] * 0.5 * u_viewport.y / max(-c.z, 1e-6);\n"
    "#endif\n"
    "    gl_PointSize = 2.0 * (rpix * u_expand + 1.5);\n"
    "#else\n"
    "    vec3 p = c.xyz + vec3(a_corner * (a_radius * u_expand + u_margin), 0.0);\n"
    "    gl_Position = u_proj * vec4(p, 1.0);\n"
    "#endif\n"
    "}\n";

/* The pixel's eye ray comes from gl_FragCoord, so points and quads share
 * it. 2D (ORTHO): a flat disk with a darker rim (as raster_disk), smoothed
 * over a pixel. 3D: ray-sphere intersection from the eye (lit as
 * raster_sphere), with the hit point's depth. */
static const char *fragment_source =
    "uniform mat4 u_proj;\n"
    "uniform float u_pixel;\n"
    "uniform vec2 u_viewport;\n"
    "varying vec3 v_center;\n"
    "varying float v_radius;\n"
    "varying vec4 v_color;\n"
    "void main() {\n"
    "    vec2 ndc = gl_FragCoord.xy / u_viewport * 2.0 - 1.0;\n"
    "#ifdef ORTHO\n"
    "    vec2 e = vec2((ndc.x - u_proj[3][0]) / u_proj[0][0],\n"
    "                  (ndc.y - u_proj[3][1]) / u_proj[1][1]);\n"
    "    float d = length(e - v_center.xy);\n"
    "    float rpix = v_radius / u_pixel;\n"
    "    float cover = clamp(rpix + 0.5 - d / u_pixel, 0.0, 1.0);\n"
    "    if (cover <= 0.0) discard;\n"
    "    float shade = (rpix > 3.0 && d > 0.85 * v_radius) ? 0.7 : 1.0;\n"
    "    gl_FragColor = vec4(v_color.rgb * shade, cover);\n"
    "#else\n"
    "    vec3 dir = normalize(vec3(ndc.x / u_proj[0][0], ndc.y / u_proj[1][1], -1.0));\n"
    "    float b = dot(dir, v_center);\n"
    "    float c = dot(v_center, v_center) - v_radius * v_radius;\n"
    "    float disc = b * b - c;\n"
    "    if (disc < 0.0) discard;\n"
    "    float t = b - sqrt(disc);\n"
    "    if (t <= 0.0) discard;\n"
    "    vec3 hit = t * dir;\n"
    "    vec3 n = (hit - v_center) / v_radius;\n"
    "    vec3 light = normalize(vec3(-0.45, 0.55, 0.70));\n"
    "    float diffuse = max(dot(n, light), 0.0);\n"
    "    vec3 h = normalize(light + vec3(0.0, 0.0, 1.0));\n"
    "    float spec = pow(max(dot(n, h), 0.0), 40.0);\n"
    "    vec3 col = v_color.rgb * (0.25 + 0.75 * diffuse) + vec3(200.0 / 255.0) * spec;\n"
    "    gl_FragColor = vec4(col, 1.0);\n"
    "    vec4 clip = u_proj * vec4(hit, 1.0);\n"
    "    gl_FragDepth = 0.5 * clip.z / clip.w + 0.5;\n"
    "#endif\n"
    "}\n";

#define LOAD(field, name)                                                   \
    do {                                                                    \
        void *p_ = get_proc(name);                                          \
        if (!p_) {                                                          \
            snprintf(err, err_size, "OpenGL function %s is missing", name); \
            free(g);                                                        \
            return NULL;                                                    \
        }                                                                   \
        memcpy(&g->field, &p_, sizeof p_);                                  \
    } while (0)

static GLuint compile(gl_scene *g, GLenum kind, const char *prefix, const char *source,
                      char *err, size_t err_size)
{
    GLuint s = g->CreateShader(kind);
    const char *parts[2] = {prefix, source};
    g->ShaderSource(s, 2, parts, NULL);
    g->CompileShader(s);
    GLint ok = 0;
    g->GetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[400] = "";
        g->GetShaderInfoLog(s, sizeof log, NULL, log);
        for (char *p = log; *p; p++)
            if (*p == '\n')
                *p = ' ';
        snprintf(err, err_size, "shader does not compile: %s", log);
        g->DeleteShader(s);
        return 0;
    }
    return s;
}

static int build_program(gl_scene *g, int ortho, int points, char *err, size_t err_size)
{
    static const char *prefixes[2][2] = {
        {"#version 120\n", "#version 120\n#define POINTS 1\n"},
        {"#version 120\n#define ORTHO 1\n", "#version 120\n#define ORTHO 1\n#define POINTS 1\n"},
    };
    const char *prefix = prefixes[ortho][points];
    GLuint vs = compile(g, GL_VERTEX_SHADER, prefix, vertex_source, err, err_size);
    GLuint fs = vs ? compile(g, GL_FRAGMENT_SHADER, prefix, fragment_source, err, err_size) : 0;
    if (!vs || !fs) {
        if (vs)
            g->DeleteShader(vs);
        return 1;
    }
    shader_program *p = &g->programs[ortho][points];
    p->id = g->CreateProgram();
    g->AttachShader(p->id, vs);
    g->AttachShader(p->id, fs);
    g->BindAttribLocation(p->id, ATTR_CENTER, "a_center");
    g->BindAttribLocation(p->id, ATTR_CORNER, "a_corner");
    g->BindAttribLocation(p->id, ATTR_RADIUS, "a_radius");
    g->BindAttribLocation(p->id, ATTR_COLOR, "a_color");
    g->LinkProgram(p->id);
    g->DeleteShader(vs);
    g->DeleteShader(fs);
    GLint ok = 0;
    g->GetProgramiv(p->id, GL_LINK_STATUS, &ok);
    if (!ok) {
        char log[400] = "";
        g->GetProgramInfoLog(p->id, sizeof log, NULL, log);
        snprintf(err, err_size, "shader program does not link: %s", log);
        g->DeleteProgram(p->id);
        p->id = 0;
        return 1;
    }
    p->u_view = g->GetUniformLocation(p->id, "u_view");
    p->u_proj = g->GetUniformLocation(p->id, "u_proj");
    p->u_expand = g->GetUniformLocation(p->id, "u_expand");
    p->u_margin = g->GetUniformLocation(p->id, "u_margin");
    p->u_pixel = g->GetUniformLocation(p->id, "u_pixel");
    p->u_viewport = g->GetUniformLocation(p->id, "u_viewport");
    return 0;
}

static void delete_programs(gl_scene *g)
{
    for (int o = 0; o < 2; o++)
        for (int p = 0; p < 2; p++)
            if (g->programs[o][p].id)
                g->DeleteProgram(g->programs[o][p].id);
}

gl_scene *gl_scene_create(gl_get_proc_fn get_proc, char *err, size_t err_size)
{
    gl_scene *g = calloc(1, sizeof *g);
    if (!g) {
        snprintf(err, err_size, "out of memory");
        return NULL;
    }
    LOAD(CreateShader, "glCreateShader");
    LOAD(ShaderSource, "glShaderSource");
    LOAD(CompileShader, "glCompileShader");
    LOAD(GetShaderiv, "glGetShaderiv");
    LOAD(GetShaderInfoLog, "glGetShaderInfoLog");
    LOAD(CreateProgram, "glCreateProgram");
    LOAD(AttachShader, "glAttachShader");
    LOAD(BindAttribLocation, "glBindAttribLocation");
    LOAD(LinkProgram, "glLinkProgram");
    LOAD(GetProgramiv, "glGetProgramiv");
    LOAD(GetProgramInfoLog, "glGetProgramInfoLog");
    LOAD(UseProgram, "glUseProgram");
    LOAD(GetUniformLocation, "glGetUniformLocation");
    LOAD(UniformMatrix4fv, "glUniformMatrix4fv");
    LOAD(Uniform1f, "glUniform1f");
    LOAD(Uniform2f, "glUniform2f");
    LOAD(VertexAttribPointer, "glVertexAttribPointer");
    LOAD(EnableVertexAttribArray, "glEnableVertexAttribArray");
    LOAD(DisableVertexAttribArray, "glDisableVertexAttribArray");
    LOAD(DeleteProgram, "glDeleteProgram");
    LOAD(DeleteShader, "glDeleteShader");
    LOAD(WindowPos2i, "glWindowPos2i");


    for (int o = 0; o < 2; o++)
        for (int p = 0; p < 2; p++)
            if (build_program(g, o, p, err, err_size)) {
                delete_programs(g);
                free(g);
                return NULL;
            }
    return g;
}

void gl_scene_free(gl_scene *g)
{
    if (!g)
        return;
    delete_programs(g);
    free(g->points.v);
    free(g->quads.v);
    free(g->hud);
    free(g);
}

static void load_camera(const camera *cam)
{
    GLdouble m[16];
    glMatrixMode(GL_PROJECTION);
    memcpy(m, cam->proj, sizeof m);
    glLoadMatrixd(m);
    glMatrixMode(GL_MODELVIEW);
    memcpy(m, cam->view, sizeof m);
    glLoadMatrixd(m);
}

static void draw_box(const camera *cam)
{
    load_camera(cam);
    double edges[12][2][3];
    int n = style_box_edges(cam->dim, cam->box, edges);
    glColor3ub(style_box_colour[0], style_box_colour[1], style_box_colour[2]);
    glBegin(GL_LINES);
    for (int e = 0; e < n; e++) {
        glVertex3dv(edges[e][0]);
        glVertex3dv(edges[e][1]);
    }
    glEnd();
}

/* Lines of the fixed planes, after the spheres: on top of them in 2D
 * (as the software renderer draws them), depth-tested in 3D; and the
 * fixed segments (2D) and the edges of the fixed triangles (3D). */
static void draw_planes(const camera *cam, const view_frame *f)
{
    if (f->nplanes == 0 && f->nsegments == 0 && f->ntriangles == 0)
        return;
    load_camera(cam);
    glColor3ub(style_plane_colour[0], style_plane_colour[1], style_plane_colour[2]);
    glBegin(GL_LINES);
    for (int s = 0; s < f->nsegments; s++) {
        glVertex3d(f->segment[s][0], f->segment[s][1], 0.0);
        glVertex3d(f->segment[s][2], f->segment[s][3], 0.0);
    }
    for (int g = 0; g < f->ntriangles; g++)
        for (int k = 0; k < 3; k++) {
            glVertex3dv(f->triangle[g] + 3 * k);
            glVertex3dv(f->triangle[g] + 3 * ((k + 1) % 3));
        }
    for (int p = 0; p < f->nplanes; p++) {
        double lines[PLANE_LINES_MAX][2][3];
        int n = plane_lines(cam->dim, cam->box, f->plane[p], f->plane[p][3], lines);
        for (int e = 0; e < n; e++) {
            glVertex3dv(lines[e][0]);
            glVertex3dv(lines[e][1]);
        }
    }
    glEnd();
}

/* 2D spokes (frame.h), after the disks: one quad each, from the centre
 * to the rim (the far corners on it), as wide as the software renderer
 * draws them. */
static void draw_spokes(const camera *cam, const view_frame *f)
{
    if (!f->spokes || cam->dim != 2 || !(cam->scale > 0.0))
        return;
    load_camera(cam);
    glColor3ub(style_spoke_colour[0], style_spoke_colour[1], style_spoke_colour[2]);
    glBegin(GL_QUADS);
    for (size_t i = 0; i < f->n; i++) {
        double r = f->radius[i], rp = r * cam->scale;
        if (!(rp >= STYLE_SPOKE_MIN_RADIUS))
            continue;
        double hw = 0.5 * style_spoke_width(rp) / cam->scale;
        double len = hw < r ? sqrt(r * r - hw * hw) : 0.0;
        double ux = cos(f->angle[i]), uy = sin(f->angle[i]);
        double x = f->pos[i][0], y = f->pos[i][1];
        glVertex3d(x + hw * uy, y - hw * ux, 0.0);
        glVertex3d(x + len * ux + hw * uy, y + len * uy - hw * ux, 0.0);
        glVertex3d(x + len * ux - hw * uy, y + len * uy + hw * ux, 0.0);
        glVertex3d(x - hw * uy, y + hw * ux, 0.0);
    }
    glEnd();
}

static sphere_vertex *list_add(vertex_list *l, size_t count)
{
    if (l->n + count > l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 1024;
        while (cap < l->n + count)
            cap *= 2;
        sphere_vertex *v = realloc(l->v, cap * sizeof *v);
        if (!v)
            return NULL;
        l->v = v;
        l->cap = cap;
    }
    sphere_vertex *out = l->v + l->n;
    l->n += count;
    return out;
}

static void set_vertex(sphere_vertex *q, const view_frame *f, size_t i, float cx, float cy)
{
    for (int d = 0; d < 3; d++)
        q->center[d] = (float)f->pos[i][d];
    if (f->dim == 2)
        q->center[2] = 0.f;
    q->corner[0] = cx;
    q->corner[1] = cy;
    q->radius = (float)f->radius[i];
    memcpy(q->rgba, f->rgb[i], 3);
    q->rgba[3] = 255;
}

/* Points for most spheres; quads for the large sphere (last, so that it
 * is on top in 2D), for spheres big on screen and for those whose centre
 * is off-screen. */
static int sort_spheres(gl_scene *g, const camera *cam, const view_frame *f)
{
    static const float corners[4][2] = {{-1.f, -1.f}, {1.f, -1.f}, {1.f, 1.f}, {-1.f, 1.f}};
    g->points.n = g->quads.n = 0;
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < f->n; i++) {
            int is_big = (long)i == f->big;
            if (is_big != pass)
                continue;
            double px, py, depth;
            int as_quad = is_big;
            if (!camera_project(cam, f->pos[i], &px, &py, &depth)) {
                as_quad = 1;
            } else if (!as_quad) {
                double rp = camera_pixel_radius(cam, f->radius[i], depth);
                as_quad = rp > POINT_MAX_RADIUS || px < 0.0 || py < 0.0 || px > cam->width ||
                          py > cam->height;
            }
            sphere_vertex *v = list_add(as_quad ? &g->quads : &g->points, as_quad ? 4 : 1);
            if (!v)
                return -1;
            if (as_quad)
                for (int k = 0; k < 4; k++)
                    set_vertex(v + k, f, i, corners[k][0], corners[k][1]);
            else
                set_vertex(v, f, i, 0.f, 0.f);
        }
    return 0;
}

static void draw_list(gl_scene *g, const camera *cam, const vertex_list *l, int points)
{
    if (l->n == 0)
        return;
    int ortho = cam->dim == 2;
    const shader_program *p = &g->programs[ortho][points];
    GLfloat m[16];
    g->UseProgram(p->id);
    for (int k = 0; k < 16; k++)
        m[k] = (GLfloat)cam->view[k];
    g->UniformMatrix4fv(p->u_view, 1, GL_FALSE, m);
    for (int k = 0; k < 16; k++)
        m[k] = (GLfloat)cam->proj[k];
    g->UniformMatrix4fv(p->u_proj, 1, GL_FALSE, m);
    /* In 2D a pixel of margin leaves room for the smoothed rim; in 3D a
     * sphere's outline seen in perspective is wider than its radius. */
    double pixel = ortho ? 1.0 / cam->scale : 1.0;
    g->Uniform1f(p->u_pixel, (GLfloat)pixel);
    g->Uniform1f(p->u_margin, ortho ? (GLfloat)(1.5 * pixel) : 0.0f);
    g->Uniform1f(p->u_expand, ortho ? 1.0f : points ? 1.3f : 1.6f);
    g->Uniform2f(p->u_viewport, (GLfloat)cam->width, (GLfloat)cam->height);
    const sphere_vertex *v = l->v;
    GLsizei stride = (GLsizei)sizeof *v;
    g->VertexAttribPointer(ATTR_CENTER, 3, GL_FLOAT, GL_FALSE, stride, v->center);
    g->VertexAttribPointer(ATTR_CORNER, 2, GL_FLOAT, GL_FALSE, stride, v->corner);
    g->VertexAttribPointer(ATTR_RADIUS, 1, GL_FLOAT, GL_FALSE, stride, &v->radius);
    g->VertexAttribPointer(ATTR_COLOR, 4, GL_UNSIGNED_BYTE, GL_TRUE, stride, v->rgba);
    glDrawArrays(points ? GL_POINTS : GL_QUADS, 0, (GLsizei)l->n);
}

void gl_scene_draw(gl_scene *g, const camera *cam, const view_frame *f)
{
    glViewport(0, 0, cam->width, cam->height);
    glClearColor(style_background[0] / 255.f, style_background[1] / 255.f,
                 style_background[2] / 255.f, 1.f);
    glClearDepth(1.0);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    int ortho = cam->dim == 2;
    if (ortho) {
        glDisable(GL_DEPTH_TEST);
        glEnable(GL_BLEND);
        glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    } else {
        glEnable(GL_DEPTH_TEST);
        glDepthFunc(GL_LESS);
        glDisable(GL_BLEND);
    }
    g->UseProgram(0);
    draw_box(cam);
    if (f->n == 0 || sort_spheres(g, cam, f) != 0) {
        draw_planes(cam, f);
        return;
    }
    glEnable(GL_VERTEX_PROGRAM_POINT_SIZE);
    g->EnableVertexAttribArray(ATTR_CENTER);
    g->EnableVertexAttribArray(ATTR_CORNER);
    g->EnableVertexAttribArray(ATTR_RADIUS);
    g->EnableVertexAttribArray(ATTR_COLOR);
    draw_list(g, cam, &g->points, 1);
    draw_list(g, cam, &g->quads, 0);
    g->DisableVertexAttribArray(ATTR_CENTER);
    g->DisableVertexAttribArray(ATTR_CORNER);
    g->DisableVertexAttribArray(ATTR_RADIUS);
    g->DisableVertexAttribArray(ATTR_COLOR);
    g->UseProgram(0);
    draw_spokes(cam, f);
    draw_planes(cam, f);
}

typedef struct hud_ctx {
    unsigned char *rgba;
    int w, h;
} hud_ctx;

static void plot_hud(void *user, int x, int y)
{
    hud_ctx *c = user;
    if (x < 0 || y < 0 || x >= c->w || y >= c->h)
        return;
    /* glDrawPixels rows go bottom to top. */
    unsigned char *p = c->rgba + 4 * ((size_t)(c->h - 1 - y) * (size_t)c->w + (size_t)x);
    memcpy(p, style_text_colour, 3);
    p[3] = 255;
}

void gl_scene_hud(gl_scene *g, const char *text, int width, int height)
{
    int scale = STYLE_TEXT_SCALE;
    int w = font_text_width(text, scale) + 2 * scale, h = FONT_CELL_H * scale;
    if (w > width)
        w = width;
    if (w <= 0 || h > height)
        return;
    size_t need = (size_t)w * (size_t)h * 4;
    if (need > g->hud_cap) {
        unsigned char *p = realloc(g->hud, need);
        if (!p)
            return;
        g->hud = p;
        g->hud_cap = need;
    }
    for (size_t i = 0; i < (size_t)w * (size_t)h; i++) {
        unsigned char *p = g->hud + 4 * i;
        p[0] = p[1] = p[2] = 0;
        p[3] = 140;
    }
    hud_ctx c = {g->hud, w, h};
    font_draw(text, scale, 0, scale, plot_hud, &c);
    g->UseProgram(0);
    glDisable(GL_DEPTH_TEST);
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    g->WindowPos2i(STYLE_TEXT_X - scale, height - STYLE_TEXT_Y - h);
    glDrawPixels(w, h, GL_RGBA, GL_UNSIGNED_BYTE, g->hud);
}

void gl_scene_read_pixels(int width, int height, unsigned char *rgb)
{
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadBuffer(GL_BACK);
    size_t row = (size_t)width * 3;
    unsigned char *tmp = malloc(row);
    glReadPixels(0, 0, width, height, GL_RGB, GL_UNSIGNED_BYTE, rgb);
    if (!tmp)
        return;
    for (int y = 0; y < height / 2; y++) {
        unsigned char *a = rgb + (size_t)y * row, *b = rgb + (size_t)(height - 1 - y) * row;
        memcpy(tmp, a, row);
        memcpy(a, b, row);
        memcpy(b, tmp, row);
    }
    free(tmp);
}
