module example.com/locallib

go 1.26
