# Writes a gzipped manual page from a freshly built program, so the page cannot drift from it.
#
#   cmake -DPROGRAM=<exe> -DMODE=man|help -DOUTPUT=<dir>/<name>.1 -DGZIP=<gzip>
#         [-DNAME=<name> -DSUMMARY=<whatis line> -DSOURCE=<footer text>] -P ManPage.cmake
#
# MODE man: the program prints its own roff (tap-diffgen --man).
# MODE help: the program's --help text becomes the DESCRIPTION of a minimal page, verbatim.
#
# Leaves <name>.1 and <name>.1.gz; gzip -9n so the archive carries no name or time stamp and the
# package is reproducible.
cmake_minimum_required(VERSION 3.25)

foreach(variable IN ITEMS PROGRAM MODE OUTPUT GZIP)
    if(NOT DEFINED ${variable})
        message(FATAL_ERROR "ManPage.cmake: -D${variable}=... is required")
    endif()
endforeach()

if(MODE STREQUAL "man")
    set(flag --man)
elseif(MODE STREQUAL "help")
    set(flag --help)
else()
    message(FATAL_ERROR "ManPage.cmake: MODE must be man or help, not '${MODE}'")
endif()

execute_process(COMMAND "${PROGRAM}" ${flag}
                OUTPUT_VARIABLE text
                ERROR_VARIABLE errors
                RESULT_VARIABLE status
                TIMEOUT 60)
if(NOT status EQUAL 0)
    message(FATAL_ERROR "ManPage.cmake: '${PROGRAM} ${flag}' failed (${status}): ${errors}")
endif()

if(MODE STREQUAL "help")
    # roff escapes: '\' first, then '-' as the minus a reader types; a leading '.' or '\''
    # would be read as a request.
    string(REPLACE "\\" "\\e" text "${text}")
    string(REPLACE "-" "\\-" text "${text}")
    string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" text "${text}")
    string(REPLACE "-" "\\-" name "${NAME}")
    string(REPLACE "-" "\\-" source "${SOURCE}")
    string(TOUPPER "${name}" title)
    set(text ".TH ${title} 1 \"\" \"${source}\" \"User Commands\"
.SH NAME
${name} \\- ${SUMMARY}
.SH DESCRIPTION
.nf
${text}.fi
.SH SEE ALSO
\\fBtap\\-diffgen\\fR(1)
")
endif()

file(WRITE "${OUTPUT}" "${text}")
execute_process(COMMAND "${GZIP}" -9nkf "${OUTPUT}" RESULT_VARIABLE status)
if(NOT status EQUAL 0)
    message(FATAL_ERROR "ManPage.cmake: ${GZIP} -9nkf ${OUTPUT} failed (${status})")
endif()
