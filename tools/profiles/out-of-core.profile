# An out-of-core code: the working set lives in the file system and is read, modified and
# written back in pieces again and again. Justified in docs/guides/tools.md ("Profiles").
Name "out-of-core solver"
# pattern         mode               size        weight
*                 read-modify-write  64K..16M    4     # thesis §3.4.2: out-of-core codes use it extensively
*                 read-modify-write  *           2
*                 re-read            64K..16M    3     # panels read back on every sweep
*                 re-write           64K..16M    2
simple_strided    read               64K..16M    2     # block-cyclic panels of a distributed matrix
nested_strided    read               *           2     # sub-blocks of a multi-dimensional array
random_strided    read               *           2     # irregular panels
simple_strided    write              64K..16M    1
nested_strided    write              *           1
random_strided    write              *           1
segmented         *                  64K..16M    1
