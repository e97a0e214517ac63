#ifndef CTEXT_FREETYPE_H
#define CTEXT_FREETYPE_H
/* FreeType's declarations, for SubCore's types and for the trampolines in loader.c. FreeType's headers live in
 * /usr/include/freetype2, off the compiler's default path: ft2build.h and freetype/ in this folder link there, so
 * no pkg-config flags are needed (they would also link the library at start, which loader.c does on first use). */
#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_SFNT_NAMES_H
#include FT_TRUETYPE_IDS_H
#include FT_TRUETYPE_TABLES_H
#include FT_TRUETYPE_TAGS_H

/* The FreeType functions SubCore calls, each as ctext_<name>: loader.c defines them, loading libfreetype on first
 * use. Not under FreeType's own names, as the other libraries' functions are: FreeType's headers declare those
 * with default visibility, and the trampolines must stay hidden (libass and fontconfig call FreeType too).
 * X(library, return type, name, (parameters), (arguments)); XV for void ones. */
#define CTEXT_FREETYPE_FUNCTIONS(X, XV)                                                                              \
    X(CTEXT_FREETYPE, FT_Error, FT_Done_Face, (FT_Face face), (face))                                            \
    X(CTEXT_FREETYPE, FT_Error, FT_Done_FreeType, (FT_Library library), (library))                               \
    X(CTEXT_FREETYPE, const char *, FT_Error_String, (FT_Error error_code), (error_code))                        \
    X(CTEXT_FREETYPE, FT_ULong, FT_Get_First_Char, (FT_Face face, FT_UInt * agindex), (face, agindex))           \
    X(CTEXT_FREETYPE, FT_ULong, FT_Get_Next_Char, (FT_Face face, FT_ULong char_code, FT_UInt * agindex),         \
      (face, char_code, agindex))                                                                                \
    X(CTEXT_FREETYPE, const char *, FT_Get_Postscript_Name, (FT_Face face), (face))                              \
    X(CTEXT_FREETYPE, FT_Error, FT_Get_Sfnt_Name, (FT_Face face, FT_UInt idx, FT_SfntName * aname),              \
      (face, idx, aname))                                                                                        \
    X(CTEXT_FREETYPE, FT_UInt, FT_Get_Sfnt_Name_Count, (FT_Face face), (face))                                   \
    X(CTEXT_FREETYPE, void *, FT_Get_Sfnt_Table, (FT_Face face, FT_Sfnt_Tag tag), (face, tag))                   \
    X(CTEXT_FREETYPE, FT_Error, FT_Init_FreeType, (FT_Library * alibrary), (alibrary))                           \
    XV(CTEXT_FREETYPE, FT_Library_Version, (FT_Library library, FT_Int * amajor, FT_Int * aminor, FT_Int * apatch), \
       (library, amajor, aminor, apatch))                                                                        \
    X(CTEXT_FREETYPE, FT_Error, FT_Load_Char, (FT_Face face, FT_ULong char_code, FT_Int32 load_flags),           \
      (face, char_code, load_flags))                                                                             \
    X(CTEXT_FREETYPE, FT_Error, FT_Load_Sfnt_Table,                                                              \
      (FT_Face face, FT_ULong tag, FT_Long offset, FT_Byte * buffer, FT_ULong * length),                         \
      (face, tag, offset, buffer, length))                                                                       \
    X(CTEXT_FREETYPE, FT_Error, FT_New_Face,                                                                     \
      (FT_Library library, const char *filepathname, FT_Long face_index, FT_Face *aface),                        \
      (library, filepathname, face_index, aface))                                                                \
    X(CTEXT_FREETYPE, FT_Error, FT_New_Memory_Face,                                                              \
      (FT_Library library, const FT_Byte *file_base, FT_Long file_size, FT_Long face_index, FT_Face *aface),     \
      (library, file_base, file_size, face_index, aface))                                                        \
    X(CTEXT_FREETYPE, FT_Error, FT_Select_Charmap, (FT_Face face, FT_Encoding encoding), (face, encoding))       \
    X(CTEXT_FREETYPE, FT_Error, FT_Set_Pixel_Sizes, (FT_Face face, FT_UInt pixel_width, FT_UInt pixel_height),   \
      (face, pixel_width, pixel_height))

#define CTEXT_DECLARE_FREETYPE(library, type, name, parameters, arguments) type ctext_##name parameters;
#define CTEXT_DECLARE_FREETYPE_VOID(library, name, parameters, arguments) void ctext_##name parameters;
CTEXT_FREETYPE_FUNCTIONS(CTEXT_DECLARE_FREETYPE, CTEXT_DECLARE_FREETYPE_VOID)
#undef CTEXT_DECLARE_FREETYPE
#undef CTEXT_DECLARE_FREETYPE_VOID

/* FT_HAS_* and FT_IS_* are macros over face flags. */
static inline int cfreetype_is_sfnt(FT_Face face) { return FT_IS_SFNT(face) ? 1 : 0; }
static inline int cfreetype_is_scalable(FT_Face face) { return FT_IS_SCALABLE(face) ? 1 : 0; }
static inline int cfreetype_is_italic(FT_Face face) { return (face->style_flags & FT_STYLE_FLAG_ITALIC) ? 1 : 0; }
static inline int cfreetype_is_bold(FT_Face face) { return (face->style_flags & FT_STYLE_FLAG_BOLD) ? 1 : 0; }
#endif
