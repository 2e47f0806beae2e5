# Finds Poco Data with its PostgreSQL and MySQL connectors on Debian 12.
#
# Debian's Poco 1.11 CMake files make Poco::DataPostgreSQL link "PostgreSQL::client" and
# Poco::DataMySQL link "MySQL::client", targets nothing defines, so generation fails. Both are
# defined here from the real client libraries before Poco is searched.
find_package(PostgreSQL REQUIRED)
find_package(PkgConfig REQUIRED)
pkg_check_modules(MARIADB REQUIRED IMPORTED_TARGET libmariadb)

if(NOT TARGET PostgreSQL::client)
    add_library(PostgreSQL::client INTERFACE IMPORTED)
    target_link_libraries(PostgreSQL::client INTERFACE PostgreSQL::PostgreSQL)
endif()
if(NOT TARGET MySQL::client)
    add_library(MySQL::client INTERFACE IMPORTED)
    target_link_libraries(MySQL::client INTERFACE PkgConfig::MARIADB)
endif()

find_package(Poco REQUIRED COMPONENTS Foundation Data DataPostgreSQL DataMySQL)
