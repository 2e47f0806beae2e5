# tap_diffgen_add_dialect_plugin(<target> DIALECT <name> SOURCES <src>...)
#
# Builds a dialect plugin the way the tap expects to load it: a MODULE library named
# tap-diffgen-dialect-<name>.so that exports only tdg_plugin_info and tdg_driver_init, binds
# every symbol at load time (-z now) and has no undefined symbol left (--no-undefined), so a
# missing dependency is a clear load error instead of a crash at first call.

function(tap_diffgen_add_dialect_plugin target)
    cmake_parse_arguments(PARSE_ARGV 1 ARG "" "DIALECT;OUTPUT_DIRECTORY" "SOURCES")
    if(NOT ARG_DIALECT)
        message(FATAL_ERROR "tap_diffgen_add_dialect_plugin: DIALECT is required")
    endif()
    add_library(${target} MODULE ${ARG_SOURCES})
    target_link_libraries(${target} PRIVATE tap-diffgen::sdk)
    set(exports "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/plugin-exports.map")
    set_target_properties(${target} PROPERTIES
        PREFIX ""
        OUTPUT_NAME "tap-diffgen-dialect-${ARG_DIALECT}"
        CXX_VISIBILITY_PRESET hidden
        VISIBILITY_INLINES_HIDDEN ON
        LINK_DEPENDS "${exports}")
    target_link_options(${target} PRIVATE
        "LINKER:--version-script=${exports}" "LINKER:-z,now" "LINKER:--no-undefined")
    if(ARG_OUTPUT_DIRECTORY)
        set_target_properties(${target} PROPERTIES LIBRARY_OUTPUT_DIRECTORY "${ARG_OUTPUT_DIRECTORY}")
    elseif(DEFINED TAP_DIFFGEN_PLUGIN_OUTPUT_DIR)
        set_target_properties(${target} PROPERTIES
            LIBRARY_OUTPUT_DIRECTORY "${TAP_DIFFGEN_PLUGIN_OUTPUT_DIR}")
    endif()
endfunction()
