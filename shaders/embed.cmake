# Embeds shaders/<name>.vert and .frag into <out_dir>/generated/app/shaders.h (from
# src/app/shaders.h.in) at configure time; used by the desktop build (src/app) and the web build.
function(bw_embed_shaders root out_dir)
  foreach(name heatmap fill)
    string(TOUPPER ${name} up)
    file(READ ${root}/shaders/${name}.vert BW_${up}_VERT)
    file(READ ${root}/shaders/${name}.frag BW_${up}_FRAG)
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${root}/shaders/${name}.vert ${root}/shaders/${name}.frag)
  endforeach()
  configure_file(${root}/src/app/shaders.h.in ${out_dir}/generated/app/shaders.h @ONLY)
endfunction()
