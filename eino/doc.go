package eino
