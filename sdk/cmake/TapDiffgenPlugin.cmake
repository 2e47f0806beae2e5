# tap_diffgen_add_dialect_plugin(<target> DIALECT <name> SOURCES <src>...
#                                [OUTPUT_DIRECTORY <dir>])
#
# Builds a dialect plugin the way the tap expects to load it: a MODULE library named
# tap-diffgen-dialect-<name>.so that exports only tdg_plugin_info and tdg_driver_init, binds
# every symbol at load time (-z now) and has no undefined symbol left (--no-undefined), so a
# missing dependency is a clear load error instead of a crash at first call.
#
# tap_diffgen_install_dialect_plugin(<target> [DESTINATION <dir>] [COMPONENT <name>])
#
# Installs such a plugin where the tap looks for plugins: <prefix>/<libdir>/tap-diffgen/plugins,
# with the <libdir> of the tap the SDK came with (TapDiffgenSDK_PLUGIN_SUBDIR), so installing
# into the tap's own prefix makes `tap-diffgen --list-plugins` show it. COMPONENT defaults to
# the dialect name. For any other prefix, point the tap at the directory with
# TAP_DIFFGEN_PLUGIN_PATH or --plugin-dir.
#
# Used from this repository and from the installed TapDiffgenSDK package alike.

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
        TAP_DIFFGEN_DIALECT "${ARG_DIALECT}"
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

function(tap_diffgen_install_dialect_plugin target)
    cmake_parse_arguments(PARSE_ARGV 1 ARG "" "DESTINATION;COMPONENT" "")
    get_target_property(dialect ${target} TAP_DIFFGEN_DIALECT)
    if(NOT dialect)
        message(FATAL_ERROR "tap_diffgen_install_dialect_plugin: ${target} was not made by "
                            "tap_diffgen_add_dialect_plugin")
    endif()
    # The tap finds plugins at <bin>/../<its libdir>/tap-diffgen/plugins, so the default is the
    # tap's libdir (from the package, or the top-level build in this repository), not ours.
    if(ARG_DESTINATION)
        set(destination "${ARG_DESTINATION}")
    elseif(DEFINED TapDiffgenSDK_PLUGIN_SUBDIR)
        set(destination "${TapDiffgenSDK_PLUGIN_SUBDIR}")
    elseif(DEFINED TAP_DIFFGEN_PLUGIN_SUBDIR)
        set(destination "${TAP_DIFFGEN_PLUGIN_SUBDIR}")
    else()
        include(GNUInstallDirs)
        set(destination "${CMAKE_INSTALL_LIBDIR}/tap-diffgen/plugins")
    endif()
    if(ARG_COMPONENT)
        set(component "${ARG_COMPONENT}")
    else()
        set(component "${dialect}")
    endif()
    install(TARGETS ${target} LIBRARY DESTINATION "${destination}" COMPONENT "${component}")
endfunction()
