/* OpenGL drawing of the viewer's pictures (see gl_scene.h). One draw call
 * for all spheres: each is a quad of four vertices around its centre in
 * eye space, and the fragment shader intersects the eye ray with the
 * sphere, discarding pixels that miss it. */
#include "gl_scene.h"

#include <GL/gl.h>
#include <GL/glext.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "font.h"
#include "scene_style.h"

typedef struct quad_vertex {
    float center[3];
    float corner[2];
    float radius;
    unsigned char rgba[4];
} quad_vertex;

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
    PFNGLUNIFORM1IPROC Uniform1i;
    PFNGLUNIFORM1FPROC Uniform1f;
    PFNGLVERTEXATTRIBPOINTERPROC VertexAttribPointer;
    PFNGLENABLEVERTEXATTRIBARRAYPROC EnableVertexAttribArray;
    PFNGLDISABLEVERTEXATTRIBARRAYPROC DisableVertexAttribArray;
    PFNGLDELETEPROGRAMPROC DeleteProgram;
    PFNGLDELETESHADERPROC DeleteShader;
    PFNGLWINDOWPOS2IPROC WindowPos2i;

    GLuint program;
    GLint u_view, u_proj, u_ortho, u_expand, u_margin, u_pixel;
    quad_vertex *vertices;
    size_t vertex_cap;
    unsigned char *hud;
    size_t hud_cap;
};

enum { ATTR_CENTER = 0, ATTR_CORNER = 1, ATTR_RADIUS = 2, ATTR_COLOR = 3 };

static const char *vertex_source =
    "#version 120\n"
    "attribute vec3 a_center;\n"
    "attribute vec2 a_corner;\n"
    "attribute float a_radius;\n"
    "attribute vec4 a_color;\n"
    "uniform mat4 u_view;\n"
    "uniform mat4 u_proj;\n"
    "uniform float u_expand;\n"
    "uniform float u_margin;\n"
    "varying vec3 v_center;\n"
    "varying vec3 v_pos;\n"
    "varying float v_radius;\n"
    "varying vec4 v_color;\n"
    "void main() {\n"
    "    vec4 c = u_view * vec4(a_center, 1.0);\n"
    "    vec3 p = c.xyz + vec3(a_corner * (a_radius * u_expand + u_margin), 0.0);\n"
    "    v_center = c.xyz;\n"
    "    v_pos = p;\n"
    "    v_radius = a_radius;\n"
    "    v_color = a_color;\n"
    "    gl_Position = u_proj * vec4(p, 1.0);\n"
    "}\n";

/* 2D: a flat disk with a darker rim (as raster_disk), smoothed over a
 * pixel. 3D: ray-sphere intersection from the eye (as raster_sphere's
 * lighting), with the hit point's depth. */
static const char *fragment_source =
    "#version 120\n"
    "uniform mat4 u_proj;\n"
    "uniform int u_ortho;\n"
    "uniform float u_pixel;\n"
    "varying vec3 v_center;\n"
    "varying vec3 v_pos;\n"
    "varying float v_radius;\n"
    "varying vec4 v_color;\n"
    "void main() {\n"
    "    if (u_ortho == 1) {\n"
    "        float d = length(v_pos.xy - v_center.xy);\n"
    "        float rpix = v_radius / u_pixel;\n"
    "        float cover = clamp(rpix + 0.5 - d / u_pixel, 0.0, 1.0);\n"
    "        if (cover <= 0.0) discard;\n"
    "        float shade = (rpix > 3.0 && d > 0.85 * v_radius) ? 0.7 : 1.0;\n"
    "        gl_FragColor = vec4(v_color.rgb * shade, cover);\n"
    "        return;\n"
    "    }\n"
    "    vec3 dir = normalize(v_pos);\n"
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

static GLuint compile(gl_scene *g, GLenum kind, const char *source, char *err, size_t err_size)
{
    GLuint s = g->CreateShader(kind);
    g->ShaderSource(s, 1, &source, NULL);
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
    LOAD(Uniform1i, "glUniform1i");
    LOAD(Uniform1f, "glUniform1f");
    LOAD(VertexAttribPointer, "glVertexAttribPointer");
    LOAD(EnableVertexAttribArray, "glEnableVertexAttribArray");
    LOAD(DisableVertexAttribArray, "glDisableVertexAttribArray");
    LOAD(DeleteProgram, "glDeleteProgram");
    LOAD(DeleteShader, "glDeleteShader");
    LOAD(WindowPos2i, "glWindowPos2i");

    GLuint vs = compile(g, GL_VERTEX_SHADER, vertex_source, err, err_size);
    GLuint fs = vs ? compile(g, GL_FRAGMENT_SHADER, fragment_source, err, err_size) : 0;
    if (!vs || !fs) {
        if (vs)
            g->DeleteShader(vs);
        free(g);
        return NULL;
    }
    g->program = g->CreateProgram();
    g->AttachShader(g->program, vs);
    g->AttachShader(g->program, fs);
    g->BindAttribLocation(g->program, ATTR_CENTER, "a_center");
    g->BindAttribLocation(g->program, ATTR_CORNER, "a_corner");
    g->BindAttribLocation(g->program, ATTR_RADIUS, "a_radius");
    g->BindAttribLocation(g->program, ATTR_COLOR, "a_color");
    g->LinkProgram(g->program);
    g->DeleteShader(vs);
    g->DeleteShader(fs);
    GLint ok = 0;
    g->GetProgramiv(g->program, GL_LINK_STATUS, &ok);
    if (!ok) {
        char log[400] = "";
        g->GetProgramInfoLog(g->program, sizeof log, NULL, log);
        snprintf(err, err_size, "shader program does not link: %s", log);
        g->DeleteProgram(g->program);
        free(g);
        return NULL;
    }
    g->u_view = g->GetUniformLocation(g->program, "u_view");
    g->u_proj = g->GetUniformLocation(g->program, "u_proj");
    g->u_ortho = g->GetUniformLocation(g->program, "u_ortho");
    g->u_expand = g->GetUniformLocation(g->program, "u_expand");
    g->u_margin = g->GetUniformLocation(g->program, "u_margin");
    g->u_pixel = g->GetUniformLocation(g->program, "u_pixel");
    return g;
}

void gl_scene_free(gl_scene *g)
{
    if (!g)
        return;
    g->DeleteProgram(g->program);
    free(g->vertices);
    free(g->hud);
    free(g);
}

static void draw_box(const camera *cam)
{
    GLdouble m[16];
    glMatrixMode(GL_PROJECTION);
    memcpy(m, cam->proj, sizeof m);
    glLoadMatrixd(m);
    glMatrixMode(GL_MODELVIEW);
    memcpy(m, cam->view, sizeof m);
    glLoadMatrixd(m);
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

static int fill_vertices(gl_scene *g, const view_frame *f)
{
    size_t need = 4 * f->n;
    if (need > g->vertex_cap) {
        quad_vertex *v = realloc(g->vertices, need * sizeof *v);
        if (!v)
            return -1;
        g->vertices = v;
        g->vertex_cap = need;
    }
    static const float corners[4][2] = {{-1.f, -1.f}, {1.f, -1.f}, {1.f, 1.f}, {-1.f, 1.f}};
    /* The large sphere goes last so that in 2D it is drawn on top. */
    size_t out = 0;
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < f->n; i++) {
            int is_big = (long)i == f->big;
            if (is_big != pass)
                continue;
            for (int k = 0; k < 4; k++) {
                quad_vertex *q = &g->vertices[out++];
                for (int d = 0; d < 3; d++)
                    q->center[d] = (float)f->pos[i][d];
                if (f->dim == 2)
                    q->center[2] = 0.f;
                q->corner[0] = corners[k][0];
                q->corner[1] = corners[k][1];
                q->radius = (float)f->radius[i];
                memcpy(q->rgba, f->rgb[i], 3);
                q->rgba[3] = 255;
            }
        }
    return 0;
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
    if (f->n == 0 || fill_vertices(g, f) != 0)
        return;
    GLfloat m[16];
    g->UseProgram(g->program);
    for (int k = 0; k < 16; k++)
        m[k] = (GLfloat)cam->view[k];
    g->UniformMatrix4fv(g->u_view, 1, GL_FALSE, m);
    for (int k = 0; k < 16; k++)
        m[k] = (GLfloat)cam->proj[k];
    g->UniformMatrix4fv(g->u_proj, 1, GL_FALSE, m);
    g->Uniform1i(g->u_ortho, ortho);
    /* In 2D the quad needs a pixel of margin for the smoothed rim; in 3D
     * a sphere's outline seen in perspective is wider than its radius. */
    double pixel = ortho ? 1.0 / cam->scale : 1.0;
    g->Uniform1f(g->u_pixel, (GLfloat)pixel);
    g->Uniform1f(g->u_margin, ortho ? (GLfloat)(1.5 * pixel) : 0.0f);
    g->Uniform1f(g->u_expand, ortho ? 1.0f : 1.6f);
    const quad_vertex *v = g->vertices;
    g->EnableVertexAttribArray(ATTR_CENTER);
    g->EnableVertexAttribArray(ATTR_CORNER);
    g->EnableVertexAttribArray(ATTR_RADIUS);
    g->EnableVertexAttribArray(ATTR_COLOR);
    GLsizei stride = (GLsizei)sizeof *v;
    g->VertexAttribPointer(ATTR_CENTER, 3, GL_FLOAT, GL_FALSE, stride, v->center);
    g->VertexAttribPointer(ATTR_CORNER, 2, GL_FLOAT, GL_FALSE, stride, v->corner);
    g->VertexAttribPointer(ATTR_RADIUS, 1, GL_FLOAT, GL_FALSE, stride, &v->radius);
    g->VertexAttribPointer(ATTR_COLOR, 4, GL_UNSIGNED_BYTE, GL_TRUE, stride, v->rgba);
    glDrawArrays(GL_QUADS, 0, (GLsizei)(4 * f->n));
    g->DisableVertexAttribArray(ATTR_CENTER);
    g->DisableVertexAttribArray(ATTR_CORNER);
    g->DisableVertexAttribArray(ATTR_RADIUS);
    g->DisableVertexAttribArray(ATTR_COLOR);
    g->UseProgram(0);
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
