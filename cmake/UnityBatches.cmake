# Unity builds (-DCMAKE_UNITY_BUILD=ON) compile each target's sources in batches of 16 unless
# the cache says otherwise. CMake's own default, 8, leaves most of a full build parsing the same
# Poco, doctest and standard headers again: the core library takes 36 s on two jobs in batches
# of 8 and 26 s in batches of 16. Plain builds are left file by file, which is what incremental
# work wants.
if(NOT DEFINED CMAKE_UNITY_BUILD_BATCH_SIZE)
    set(CMAKE_UNITY_BUILD_BATCH_SIZE 16)
endif()
